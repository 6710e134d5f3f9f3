module memtrace

go 1.26
