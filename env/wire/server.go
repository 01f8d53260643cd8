package wire

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gorl/gorl/env"
)

// Serve serves e, named name, to the parent at the other end of r and w:
// it writes the hello frame, then answers requests until a close request
// (it closes e and returns nil), the end of r (it closes e and returns nil:
// the parent has gone) or a malformed request (it answers with a protocol
// error and returns it). Errors of e are sent to the parent, and Serve
// goes on. A panic of e is not recovered: it ends the worker process,
// whose exit the parent reports.
//
// Go envs take no reset options: a reset with options is refused as
// unsupported.
func Serve(e env.Env, name string, r io.Reader, w io.Writer) error {
	return serve(e, name, newPipeConn(r, w), nil)
}

// serve serves e: the hello on pc, then requests on sc if it is not nil
// (the shared region), else on pc.
func serve(e env.Env, name string, pc, sc conn) error {
	if !littleEndian() {
		return errBigEndian
	}
	obsL, err := NewLayout(e.ObservationSpace())
	if err != nil {
		return err
	}
	actL, err := NewLayout(e.ActionSpace())
	if err != nil {
		return err
	}
	_, renders := e.(env.Renderer)
	var out enc
	if err := out.hello(Hello{Name: name, Renders: renders, SharedMemory: sc != nil, Obs: e.ObservationSpace(), Act: e.ActionSpace()}); err != nil {
		return err
	}
	if err := pc.send(out.finish(), time.Time{}); err != nil {
		return err
	}
	c := pc
	if sc != nil {
		c = sc
	}
	send := func() error { return c.send(out.finish(), time.Time{}) }
	act := actL.NewDecoder()
	for {
		typ, p, err := c.recv(time.Time{})
		if err == io.EOF {
			return e.Close()
		}
		if err != nil {
			out.errorFrame("protocol", err.Error(), "")
			_ = send()
			return err
		}
		var reqErr error
		switch typ {
		case TypeReset:
			seed, opts, err := decodeReset(p)
			if err != nil {
				reqErr = err
				break
			}
			if opts != "" {
				out.errorFrame("unsupported", fmt.Sprintf("%s takes no reset options", name), "")
				break
			}
			obs, info, err := e.Reset(seed)
			if err != nil {
				out.errorFrame(errorKind(err), err.Error(), "")
				break
			}
			out.begin(TypeResetOK)
			if err := out.value(obsL, obs); err != nil {
				out.errorFrame("exception", fmt.Sprintf("%s returned an observation outside its space: %v", name, err), "")
				break
			}
			out.info(info, 0)
		case TypeStep:
			a, err := act.Decode(p)
			if err != nil {
				reqErr = err
				break
			}
			obs, rew, term, trunc, info, err := e.Step(a)
			if err != nil {
				out.errorFrame(errorKind(err), err.Error(), "")
				break
			}
			out.begin(TypeStepOK)
			out.u64(math.Float64bits(rew))
			var flags byte
			if term {
				flags |= 1
			}
			if trunc {
				flags |= 2
			}
			out.u8(flags)
			if err := out.value(obsL, obs); err != nil {
				out.errorFrame("exception", fmt.Sprintf("%s returned an observation outside its space: %v", name, err), "")
				break
			}
			out.info(info, 0)
		case TypeRender:
			img, err := env.Render(e)
			if err != nil {
				out.errorFrame(errorKind(err), err.Error(), "")
				break
			}
			out.frame(img)
		case TypeClose:
			err := e.Close()
			if err != nil {
				out.errorFrame(errorKind(err), err.Error(), "")
			} else {
				out.begin(TypeClosed)
			}
			_ = send()
			return err
		default:
			reqErr = protoErr("unknown request type 0x%02x", typ)
		}
		if reqErr != nil {
			out.errorFrame("protocol", reqErr.Error(), "")
			_ = send()
			_ = e.Close()
			return reqErr
		}
		if err := send(); err != nil {
			_ = e.Close()
			return err
		}
	}
}
