module github.com/wsched/wsched/bench

go 1.26.0

replace github.com/wsched/wsched => ../

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/gammazero/workerpool v1.3.0
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/wsched/wsched v0.0.0-00010101000000-000000000000
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/gammazero/deque v1.2.2 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
