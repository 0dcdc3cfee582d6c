# treecmp.sh — listings for comparing two extracted trees in e2e tests (sourced).
#   listing DIR     one sorted line per entry: path, type, size, mode, mtime, link target
#                   (directory sizes left out: they depend on the file system's history)
#   hashes DIR      sha256 of every regular file, by path
#   linkgroups DIR  the groups of names sharing one inode, one group a line

listing() {
    (cd "$1" && find . -mindepth 1 -printf '%P %y %s %m %T@ %l\n' |
        awk '$2 == "d" { $3 = "-" } { print }' | sort)
}
hashes() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
linkgroups() {
    (cd "$1" && find . -type f -links +1 -printf '%i %P\n' | sort |
        awk '{ g[$1] = g[$1] " " $2 } END { for (i in g) print g[i] }' | sort)
}
