# the same through a pipe, where the size is not known in advance
head -c 67108870 /dev/zero | "$1" check /dev/stdin
