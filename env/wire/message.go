package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"

	"github.com/gorl/gorl/env"
)

// Hello is what a worker says first: the env's name and spaces.
type Hello struct {
	Name    string
	Renders bool
	// SharedMemory reports that the worker takes up the shared region it
	// was offered (flags bit 1).
	SharedMemory bool
	Obs          env.Space
	Act          env.Space
}

// appendHello encodes h as a frame.
func (e *enc) hello(h Hello) error {
	e.begin(TypeHello)
	e.raw([]byte(magic))
	e.u16(Version)
	var flags byte
	if h.Renders {
		flags |= 1
	}
	if h.SharedMemory {
		flags |= 2
	}
	e.u8(flags)
	e.str(h.Name)
	if err := e.space(h.Obs, 0); err != nil {
		return err
	}
	return e.space(h.Act, 0)
}

// decodeHello decodes the payload of a hello frame.
func decodeHello(p []byte) (Hello, error) {
	d := dec{b: p}
	if m := d.take(len(magic), "magic"); d.err == nil && string(m) != magic {
		return Hello{}, protoErr("hello does not start with %q", magic)
	}
	if v := d.u16("version"); d.err == nil && v != Version {
		return Hello{}, protoErr("worker speaks protocol version %d, this is version %d", v, Version)
	}
	flags := d.u8("flags")
	h := Hello{Renders: flags&1 != 0, SharedMemory: flags&2 != 0, Name: d.str("name")}
	h.Obs = d.space(0)
	h.Act = d.space(0)
	return h, d.end("hello")
}

// RemoteError is an error the worker reported: an exception of the env
// (with its Python traceback when the env is in Python) or a request the
// worker refused.
type RemoteError struct {
	Kind      string // "exception", "action", "need_reset", "unsupported" or "protocol"
	Message   string
	Traceback string // the Python traceback, if any
}

// Error returns the kind and message, then the traceback on the following
// lines.
func (e *RemoteError) Error() string {
	s := e.Kind + ": " + e.Message
	if e.Traceback != "" {
		s += "\n" + e.Traceback
	}
	return s
}

// Unwrap maps the kinds to env's errors: env.ErrAction, env.ErrNeedReset,
// errors.ErrUnsupported; ErrProtocol for "protocol".
func (e *RemoteError) Unwrap() error {
	switch e.Kind {
	case "action":
		return env.ErrAction
	case "need_reset":
		return env.ErrNeedReset
	case "unsupported":
		return errors.ErrUnsupported
	case "protocol":
		return ErrProtocol
	}
	return nil
}

// errorKind is the kind of err for an error frame.
func errorKind(err error) string {
	switch {
	case errors.Is(err, env.ErrAction):
		return "action"
	case errors.Is(err, env.ErrNeedReset):
		return "need_reset"
	case errors.Is(err, errors.ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrProtocol):
		return "protocol"
	}
	return "exception"
}

func (e *enc) errorFrame(kind, msg, tb string) {
	e.begin(TypeError)
	e.str(kind)
	e.str(msg)
	e.str(tb)
}

func decodeError(p []byte) error {
	d := dec{b: p}
	r := &RemoteError{Kind: d.str("error kind"), Message: d.str("error message"), Traceback: d.str("traceback")}
	if err := d.end("error"); err != nil {
		return err
	}
	return r
}

// resetRequest encodes a reset frame.
func (e *enc) resetRequest(seed env.Seed, options map[string]any) error {
	e.begin(TypeReset)
	v, ok := seed.Value()
	if ok {
		e.u8(1)
	} else {
		e.u8(0)
	}
	e.u64(v)
	if len(options) == 0 {
		e.str("")
		return nil
	}
	js, err := json.Marshal(options)
	if err != nil {
		return fmt.Errorf("wire: reset options: %w", err)
	}
	e.str(string(js))
	return nil
}

// decodeReset decodes the payload of a reset frame.
func decodeReset(p []byte) (env.Seed, string, error) {
	d := dec{b: p}
	seeded := d.u8("seeded")
	v := d.u64("seed")
	opts := d.str("options")
	if err := d.end("reset"); err != nil {
		return env.NoSeed, "", err
	}
	switch seeded {
	case 0:
		return env.NoSeed, opts, nil
	case 1:
		return env.SeedOf(v), opts, nil
	}
	return env.NoSeed, "", protoErr("reset seeded flag is %d", seeded)
}

// frame appends an RGB frame of img.
func (e *enc) frame(img image.Image) {
	b := img.Bounds()
	e.begin(TypeFrame)
	e.u32(uint32(b.Dy()))
	e.u32(uint32(b.Dx()))
	if rgba, ok := img.(*image.RGBA); ok {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := rgba.Pix[rgba.PixOffset(b.Min.X, y):]
			for x := range b.Dx() {
				e.b = append(e.b, row[4*x], row[4*x+1], row[4*x+2])
			}
		}
		return
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			e.b = append(e.b, byte(r>>8), byte(g>>8), byte(bl>>8))
		}
	}
}

// decodeFrame decodes the payload of a frame reply into an RGBA image.
func decodeFrame(p []byte) (*image.RGBA, error) {
	d := dec{b: p}
	h, w := d.u32("frame height"), d.u32("frame width")
	if d.err == nil && uint64(h)*uint64(w)*3 != uint64(len(d.b)) {
		return nil, protoErr("a %d×%d frame needs %d bytes, got %d", w, h, uint64(h)*uint64(w)*3, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	img := image.NewRGBA(image.Rect(0, 0, int(w), int(h)))
	for i := range int(w) * int(h) {
		copy(img.Pix[4*i:4*i+3], d.b[3*i:3*i+3])
		img.Pix[4*i+3] = 255
	}
	return img, nil
}
