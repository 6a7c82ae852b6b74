package park_test

import (
	"fmt"
	"time"

	"github.com/wsched/wsched/impl/park"
)

func ExampleChan() {
	p := park.NewChan()
	go p.Unpark()
	woken := p.Park(time.Minute) // returns once the Unpark lands
	fmt.Println(woken)
	fmt.Println(p.Park(time.Millisecond)) // nobody unparks: timeout
	// Output:
	// true
	// false
}
