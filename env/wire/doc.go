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
//	0x80 hello    magic "GORLWIRE" | version u16 | flags u8 (bit 0: renders) | name string | observation space | action space
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
package wire
