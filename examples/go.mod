module github.com/wsched/wsched/examples

go 1.26.0

replace github.com/wsched/wsched => ../

require github.com/wsched/wsched v0.0.0-00010101000000-000000000000
