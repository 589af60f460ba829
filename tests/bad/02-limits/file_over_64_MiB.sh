# a (sparse) file of 64 MiB + 1 byte: refused before it is read
printf '{' >"$BAD_TMP/big.json"
truncate -s 67108865 "$BAD_TMP/big.json"
exec "$1" check "$BAD_TMP/big.json"
