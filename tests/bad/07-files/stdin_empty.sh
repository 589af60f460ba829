# an empty pipe on stdin
printf '' | "$1" check /dev/stdin
