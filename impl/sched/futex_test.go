package sched

import "github.com/wsched/wsched/impl/park"

func futexSupported() bool { return park.FutexSupported }
