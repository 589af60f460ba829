# sourced by scripts/bench.sh: the M:N + shared-counter model (issue 5)
sim "tarai_ractors 8 Ractors, shared counter, 12 cores" scenarios/tarai_ractors.json --set ractors.1.count=8 --set machine.cores=12 --set runtime.max_cpu=12 --set runtime.insn_counter=shared
sim "tarai_ractors 16 Ractors, shared, penalty, 4 cores" scenarios/tarai_ractors.json --set ractors.1.count=16 --set machine.cores=4 --set runtime.insn_counter=shared --set runtime.counter_model=penalty
