# futex_words.awk - scripts/futex_words.bt's counts, summed by futex word:
#
#   awk -f scripts/futex_words.awk F.txt
#
# One line per word and thread: the word's kind (mutex: FUTEX_WAIT
# expecting 2, glibc's lock; cond: FUTEX_WAIT_BITSET, a condvar, whose two
# __g_signals words are counted as one, by their 8-byte-aligned address),
# then the thread (name/tid) and its waits that slept, that returned at once
# (EAGAIN: the word changed on the way in) or otherwise (a timeout, a
# signal), and its wakes that woke someone and that found nobody.  Words
# are listed by their sleeps, most first; a ppoll(2) line per thread after
# them; last, each thread's sleeps in all.  Which word is which lock is read
# off who uses it: with CRuby 3.1's GVL, the mutex every thread waits on is
# gvl->lock, a condvar one thread waits on and others wake is that
# thread's cond.gvlq, one several threads wait on is switch_cond (docs/validate.md,
# "Owed CPU before the lock").  Exit 1 when the file holds no count.

# a thread is its tid; its name, the comm most of its counts came with (a
# thread that names itself changes comm on the way)
function who(tid, comm, n) {
    cn[tid, comm] += n
    if (cn[tid, comm] > best[tid] + 0) { best[tid] = cn[tid, comm]; tname[tid] = comm }
    return tid
}
function fields(s,    t) {  # "@x[a, b, c]: n" -> f[1..], returns n
    t = s
    sub(/^@[a-z]+\[/, "", t)
    n_ = t; sub(/.*\]: */, "", n_)
    sub(/\]:.*/, "", t)
    split(t, f, /, */)
    return n_ + 0
}
function note(word, kind, th) {
    if (!(word in wkind)) { wkind[word] = kind; words[++nw] = word }
    if (!((word, th) in seen)) { seen[word, th] = 1; wth[word] = wth[word] " " th }
    if (!(th in tseen)) { tseen[th] = 1; threads[++nt] = th }
}
# a condvar's word pair as one: the address with its low 3 bits cleared
# (in the last hex digit: awk's numbers would lose a 64-bit address)
function cword(a,    d) {
    d = index("0123456789abcdef", substr(tolower(a), length(a), 1)) - 1
    return substr(a, 1, length(a) - 1) substr("0123456789abcdef", d - d % 8 + 1, 1)
}

/^@wait\[/ {
    n = fields($0)  # tid comm addr op val slept ret
    th = who(f[1], f[2], n); kind = (f[4] == 0 && f[5] == 2) ? "mutex" : "cond"
    word = kind == "cond" ? cword(f[3]) : f[3]
    note(word, kind, th); any = 1
    if (f[6] == 1) slept[word, th] += n
    else if (f[7] == -11) once[word, th] += n
    else other[word, th] += n
    if (f[6] == 1) tsleeps[th] += n
    wsleeps[word] += (f[6] == 1) ? n : 0
    next
}
/^@wake\[/ {
    n = fields($0)  # tid comm addr op ret
    th = who(f[1], f[2], n); word = f[3]
    # a condvar's wakes go to one of its words: find the pair's waits' kind later
    wakes[++nk] = th SUBSEP word SUBSEP f[5] SUBSEP n; any = 1
    next
}
/^@ppoll\[/ {
    n = fields($0)  # tid comm slept
    th = who(f[1], f[2], n); any = 1
    if (!(th in tseen)) { tseen[th] = 1; threads[++nt] = th }
    if (f[3] == 1) { pslept[th] += n; tsleeps[th] += n } else ponce[th] += n
    pth[th] = 1
    next
}
END {
    if (!any) { print "futex_words.awk: no counts in the input (scripts/futex_words.bt's output)" > "/dev/stderr"; exit 1 }
    for (i = 1; i <= nk; i++) {
        split(wakes[i], k, SUBSEP); th = k[1]; word = k[2]
        if (!(word in wkind)) { c = cword(word); if ((c in wkind) && wkind[c] == "cond") word = c }
        if (!(word in wkind)) note(word, "wake", th)
        if (!((word, th) in seen)) { seen[word, th] = 1; wth[word] = wth[word] " " th }
        if (!(th in tseen)) { tseen[th] = 1; threads[++nt] = th }
        if (k[3] + 0 > 0) woke[word, th] += k[4]; else nobody[word, th] += k[4]
    }
    # words by their sleeps, most first (ties: first seen)
    for (i = 1; i <= nw; i++) order[i] = words[i]
    for (i = 2; i <= nw; i++) {
        w = order[i]
        for (j = i - 1; j >= 1 && wsleeps[order[j]] + 0 < wsleeps[w] + 0; j--) order[j + 1] = order[j]
        order[j + 1] = w
    }
    printf "%-6s %-16s %-16s %8s %8s %6s %8s %8s\n", "kind", "word", "thread", "slept", "at_once", "other", "woke", "nobody"
    for (i = 1; i <= nw; i++) {
        w = order[i]; m = split(substr(wth[w], 2), ts, " ")
        for (j = 1; j <= m; j++)
            printf "%-6s %-16s %-16s %8d %8d %6d %8d %8d\n", wkind[w], w, tname[ts[j]] "/" ts[j], slept[w, ts[j]], once[w, ts[j]], other[w, ts[j]],
                woke[w, ts[j]], nobody[w, ts[j]]
    }
    for (i = 1; i <= nt; i++) if (threads[i] in pth)
        printf "%-6s %-16s %-16s %8d %8d %6d %8s %8s\n", "ppoll", "-", tname[threads[i]] "/" threads[i], pslept[threads[i]], ponce[threads[i]], 0, "-", "-"
    for (i = 1; i <= nt; i++) printf "sleeps %s/%s %d\n", tname[threads[i]], threads[i], tsleeps[threads[i]]
}
