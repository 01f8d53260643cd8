// Package wire is the binary protocol between gorl and an env running in
// another process: a Python Gymnasium env served by the module in
// env/gymbridge, or a Go env in a worker process of the vector env. It
// holds the codec, a server for Go envs ([Serve]) and a client that is an
// [env.Env] backed by a child process ([Start]).
//
// # Overview
//
// The parent starts a worker process and talks to it over two pipes, which
// the worker inherits as file descriptors 3 (requests, which it reads) and
// 4 (replies, which it writes). The worker's stdin is empty and its stdout
// and stderr are kept by the parent for error messages, so an env that
// prints cannot corrupt the frames. The worker speaks first: a hello frame
// that describes the env's spaces once. Then the parent sends one request
// at a time and the worker answers each with one reply, until close or
// until the request pipe reaches end of file (the parent died), when the
// worker exits.
//
// # Frames (protocol version 1)
//
// All integers and floats are little-endian. A frame is
//
//	length u32 | type u8 | payload
//
// where length counts the type byte and the payload and is at most
// MaxFrame. A string is u32 n | n bytes of UTF-8. Requests and replies:
//
//	0x01 reset    seeded u8 (0 or 1) | seed u64 | options string (a JSON object, or empty)
//	0x02 step     action value
//	0x03 render   (empty)
//	0x04 close    (empty)
//	0x00 doorbell (empty; only on the pipes of a shared region, see below)
//	0x80 hello    magic "GORLWIRE" | version u16 | flags u8 (bit 0: renders, bit 1: uses the shared region) | name string | observation space | action space
//	0x81 reset ok observation value | info
//	0x82 step ok  reward f64 | flags u8 (bit 0: terminated, bit 1: truncated) | observation value | info
//	0x83 frame    height u32 | width u32 | height·width·3 bytes of RGB, row-major
//	0x84 closed   (empty)
//	0xFF error    kind string | message string | traceback string
//
// The error kinds are "exception" (the env raised or returned an error; the
// worker stays usable), "action" (the action is not one the env can use),
// "need_reset", "unsupported" (render of an env that cannot) and
// "protocol" (a malformed request; the worker exits after sending it).
//
// A space is a tag byte and its parameters:
//
//	1 Box           dtype u8 | ndim u8 | dims u32… | low | high (each a raw array of the dtype and shape)
//	2 Discrete      n i64 | start i64
//	3 MultiDiscrete ndim u8 | dims u32… | nvec i64… | start i64…
//	4 MultiBinary   ndim u8 | dims u32…
//	5 Dict          count u32 | (key string | space)…
//	6 Tuple         count u32 | space…
//
// with the dtype codes 1 bool, 2 int8, 3 int16, 4 int32, 5 int64, 6 uint8,
// 7 uint16, 8 uint32, 9 uint64, 10 float32, 11 float64. Spaces nest at
// most MaxDepth deep.
//
// A value of a space has no header: both sides know its layout from the
// space. A Box value is its raw array in C order, a Discrete value an i64,
// a MultiDiscrete value i64s, a MultiBinary value int8s, and a Dict or
// Tuple value the values of its sub-spaces one after the other, in the
// space's order.
//
// An info is count u32 | (key string | item)…, where an item is a tag and
// its value: 0 none, 1 bool u8, 2 int i64, 3 float f64, 4 string, 5 array
// (dtype u8 | ndim u8 | dims u32… | raw), 6 a nested info.
//
// # Shared region
//
// With Options.SharedMemory the parent also passes the worker a shared
// memory file (a memfd) as fd 5 and sets the environment variable
// SharedVar to how long the worker may spin, in nanoseconds. A worker that
// takes the region up sets bit 1 of its hello's flags (the hello itself
// always travels on the pipe); from then on every frame travels through
// the region. Its layout, from offset 0:
//
//	0     u32 request counter (written by the parent)
//	64    u32 reply counter (written by the worker)
//	128   u32 1 while the worker sleeps on its request pipe
//	192   u32 1 while the parent sleeps on its reply pipe
//	4096  request area: one frame (length u32 | type u8 | payload)
//	4096 + A  reply area: one frame, where A = 4 + MaxFrame rounded up to 4 KiB
//
// A side writes its frame at the start of its area, then increments its
// counter, then, if the other side's sleeping flag is set, writes a
// doorbell frame on its pipe. A side waiting for a frame spins on the
// other side's counter for at most the spin time, then sets its sleeping
// flag, looks at the counter again and reads doorbells from its pipe
// until the counter has moved; its first such sleep is bounded (see
// Decisions). Anything but a doorbell on the pipe is a protocol error, and
// the pipe's end of file still means that the other side has gone.
//
// # Invariants
//
//   - Decoding never panics on any input and allocates no more than the
//     bytes received justify: every count and size is checked against the
//     bytes left before anything is allocated, and a frame longer than
//     MaxFrame is refused from its header.
//   - A value must fill its frame exactly; trailing bytes are an error.
//   - Errors of malformed data wrap ErrProtocol.
//
// # Decisions
//
// A fixed binary layout rather than pickle or JSON per step: values are
// copied as raw arrays, so a step costs two pipe transfers and no
// per-element work on either side, and nothing received is executed. The
// spaces are sent once, so a step's frame carries no description.
//
// Pipes by default, the shared region as an option: over pipes each
// message is a write and a blocking read, and the reader's wake-up and
// the hand-over of the CPU between the two processes cost more than the
// encoding or a cheap env's step (a Go worker speaking the protocol costs
// about as much as a Python one). Through the region a side that finds the
// frame while it spins pays no system call and no wake-up, but it burns a
// core while it spins, so the region can pay only where each worker and
// the parent have a core of their own; on a machine with fewer idle cores
// than spinning processes a spinner delays the very peer it waits for,
// and the region measured slower than the pipes there (BENCHMARKS.md).
// The pipes stay the default until the region measures faster.
//
// The spin is bounded (DefaultSpin, tens of microseconds: longer than a
// cheap env's step and the parent's own work between steps, short enough
// that a worker waiting for a slow policy costs little) and then each side
// sleeps on its pipe, so an idle worker uses no CPU. The sleep is not a
// futex: the pipe that already carries the protocol wakes the sleeper,
// and Python has no futex call in its standard library.
//
// The counters and flags are plain 32-bit words, written by Go with
// atomic operations and by Python with ordinary stores. That is sound
// only under x86's total store order, where a side's stores become
// visible in program order (a frame before its counter), so the region is
// offered only on Linux on x86-64. A side that stores its sleeping flag
// and then reads the other's counter may still see the counter stale
// while the other side misses the flag (a store may wait in the store
// buffer past a later load, and Python cannot fence), so a side's first
// sleep after spinning lasts at most a millisecond and it looks again; by
// then its flag is visible, and later sleeps need no bound.
//
// Frames in the region are whole frames of the pipe protocol, so one
// decoder reads both and the fuzz test covers both. The region is sized
// for the largest frame in each direction; only the pages frames touch
// take memory. The Python module writes observations straight into the
// reply area through numpy views; the parent decodes them from the area
// into its own arrays, one copy.
package wire
