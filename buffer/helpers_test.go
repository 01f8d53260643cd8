package buffer_test

import (
	"flag"
	"log"
	"sync"
	"time"
)

var seedFlag = flag.Uint64("testrand.seed", 1, "random seed of the randomized tests; 0 picks one and logs it")

var loggedSeed sync.Once

// seed returns the seed of the randomized tests (-testrand.seed).
func seed() uint64 {
	s := *seedFlag
	if s == 0 {
		s = uint64(time.Now().UnixNano())
		*seedFlag = s
	}
	loggedSeed.Do(func() {
		if s != 1 {
			log.Printf("testrand.seed = %d", s)
		}
	})
	return s
}
