# alloc_loop.rb - the allocation loop of alloc_ab.rb and alloc_overlap.rb:
# alloc_chunk(mode, n) runs n ops of MODE (the modes: alloc_ab.rb's header;
# nogc and objnogc run the proc and obj loops, the caller disables the GC).
ALLOC_MODES = %i[proc obj none nogc objnogc].freeze

def escape
  x = 1
  -> { x }
end

def alloc_chunk(mode, n)
  k = 0
  while k < n
    j = 0
    j += 1 while j < 12
    case mode
    when :proc, :nogc then escape
    when :obj, :objnogc then Object.new
    end
    k += 1
  end
end
