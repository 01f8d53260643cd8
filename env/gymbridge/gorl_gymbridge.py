"""Serve a Gymnasium-style env to gorl over the gorl wire protocol.

The protocol is described in the doc comment of gorl's env/wire package.
The worker reads requests from file descriptor 3 and writes replies to file
descriptor 4, so that what the env prints cannot corrupt the frames. When
gorl sets GORL_WIRE_SHM, frames travel instead through the shared memory
region it passes as file descriptor 5, and the pipes only carry doorbells.

Usage (gorl starts this for you):

    python3 gorl_gymbridge.py --env CartPole-v1 [--kwargs JSON] [--render]
    python3 gorl_gymbridge.py --factory module:callable [--kwargs JSON]

--env makes the env with gymnasium.make (the only use of gymnasium);
--factory calls any callable returning an object with Gymnasium's
reset(seed=, options=) and step(action) methods and observation_space and
action_space attributes whose classes are named Box, Discrete,
MultiDiscrete, MultiBinary, Dict or Tuple. Only the standard library and
numpy are needed besides.
"""

import argparse
import importlib
import json
import mmap
import os
import select
import struct
import sys
import time
import traceback

import numpy as np

VERSION = 1
MAGIC = b"GORLWIRE"
MAX_FRAME = 64 << 20

DOORBELL, RESET, STEP, RENDER, CLOSE = 0x00, 0x01, 0x02, 0x03, 0x04
HELLO, RESET_OK, STEP_OK, FRAME, CLOSED, ERROR = 0x80, 0x81, 0x82, 0x83, 0x84, 0xFF

DTYPES = {1: "|b1", 2: "<i1", 3: "<i2", 4: "<i4", 5: "<i8", 6: "<u1",
          7: "<u2", 8: "<u4", 9: "<u8", 10: "<f4", 11: "<f8"}
CODES = {np.dtype(v): k for k, v in DTYPES.items()}


class ProtocolError(Exception):
    pass


def u32(n):
    return struct.pack("<I", n)


def string(s):
    b = s.encode("utf-8", "replace")
    return u32(len(b)) + b


def dtype_code(dt):
    code = CODES.get(np.dtype(dt).newbyteorder("<"))
    if code is None:
        raise TypeError("dtype %s has no gorl wire code" % dt)
    return code


def dims(shape):
    return bytes([len(shape)]) + b"".join(u32(d) for d in shape)


class Leaf:
    """One array of a space's values, sent raw."""

    def __init__(self, kind, dtype, shape):
        self.kind = kind  # "discrete" or "array"
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.nbytes = self.size * self.dtype.itemsize


class Layout:
    """The wire layout of one space: a tree of leaves."""

    def __init__(self, space):
        self.space = space
        self.tree = self._build(space, 0)
        self.nbytes = self._size(self.tree)

    def _build(self, space, depth):
        if depth > 16:
            raise ValueError("spaces nest deeper than 16")
        kind = type(space).__name__
        if kind == "Discrete":
            return Leaf("discrete", "<i8", ())
        if kind == "Box":
            return Leaf("array", np.dtype(DTYPES[dtype_code(space.dtype)]), space.shape)
        if kind == "MultiDiscrete":
            return Leaf("array", "<i8", space.shape)
        if kind == "MultiBinary":
            return Leaf("array", "<i1", space.shape)
        if kind == "Dict":
            return ("dict", [(k, self._build(s, depth + 1)) for k, s in space.spaces.items()])
        if kind == "Tuple":
            return ("tuple", [self._build(s, depth + 1) for s in space.spaces])
        raise TypeError("space %r has no gorl wire encoding" % (space,))

    def _size(self, node):
        if isinstance(node, Leaf):
            return node.nbytes
        if node[0] == "dict":
            return sum(self._size(n) for _, n in node[1])
        return sum(self._size(n) for n in node[1])

    def encode(self, value, out):
        self._encode(self.tree, value, out)

    def _encode(self, node, value, out):
        if isinstance(node, Leaf):
            if node.kind == "discrete":
                out.append(struct.pack("<q", int(value)))
                return
            a = np.asarray(value, dtype=node.dtype)
            if a.shape != node.shape:
                raise ValueError("value of shape %s for a space of shape %s" % (a.shape, node.shape))
            out.append(a.tobytes())
        elif node[0] == "dict":
            for k, n in node[1]:
                self._encode(n, value[k], out)
        else:
            for i, n in enumerate(node[1]):
                self._encode(n, value[i], out)

    def write(self, value, buf, off):
        """Writes value into the writable buffer buf at off (numpy copies
        arrays straight into it) and returns the offset after it."""
        return self._write(self.tree, value, buf, off)

    def _write(self, node, value, buf, off):
        if isinstance(node, Leaf):
            if node.kind == "discrete":
                struct.pack_into("<q", buf, off, int(value))
                return off + 8
            a = np.asarray(value)
            if a.shape != node.shape:
                raise ValueError("value of shape %s for a space of shape %s" % (a.shape, node.shape))
            view = np.frombuffer(buf, node.dtype, node.size, off).reshape(node.shape)
            np.copyto(view, a, casting="unsafe")
            return off + node.nbytes
        if node[0] == "dict":
            for k, n in node[1]:
                off = self._write(n, value[k], buf, off)
            return off
        for i, n in enumerate(node[1]):
            off = self._write(n, value[i], buf, off)
        return off

    def decode(self, buf, off):
        if len(buf) - off != self.nbytes:
            raise ProtocolError("a value takes %d bytes, got %d" % (self.nbytes, len(buf) - off))
        return self._decode(self.tree, buf, off)[0]

    def _decode(self, node, buf, off):
        if isinstance(node, Leaf):
            if node.kind == "discrete":
                return struct.unpack_from("<q", buf, off)[0], off + 8
            a = np.frombuffer(buf, node.dtype, node.size, off).reshape(node.shape).copy()
            return a, off + node.nbytes
        if node[0] == "dict":
            d = {}
            for k, n in node[1]:
                d[k], off = self._decode(n, buf, off)
            return d, off
        items = []
        for n in node[1]:
            v, off = self._decode(n, buf, off)
            items.append(v)
        return tuple(items), off


def encode_space(space, depth=0):
    kind = type(space).__name__
    if kind == "Box":
        dt = np.dtype(DTYPES[dtype_code(space.dtype)])
        low = np.broadcast_to(np.asarray(space.low), space.shape).astype(dt)
        high = np.broadcast_to(np.asarray(space.high), space.shape).astype(dt)
        return bytes([1, dtype_code(space.dtype)]) + dims(space.shape) + low.tobytes() + high.tobytes()
    if kind == "Discrete":
        return bytes([2]) + struct.pack("<qq", int(space.n), int(getattr(space, "start", 0)))
    if kind == "MultiDiscrete":
        nvec = np.asarray(space.nvec, dtype="<i8")
        start = np.asarray(getattr(space, "start", np.zeros_like(nvec)), dtype="<i8")
        return bytes([3]) + dims(nvec.shape) + nvec.tobytes() + np.broadcast_to(start, nvec.shape).tobytes()
    if kind == "MultiBinary":
        return bytes([4]) + dims(space.shape)
    if kind == "Dict":
        parts = [bytes([5]), u32(len(space.spaces))]
        for k, s in space.spaces.items():
            parts += [string(str(k)), encode_space(s, depth + 1)]
        return b"".join(parts)
    if kind == "Tuple":
        return b"".join([bytes([6]), u32(len(space.spaces))] + [encode_space(s, depth + 1) for s in space.spaces])
    raise TypeError("space %r has no gorl wire encoding" % (space,))


def encode_info(info, out, depth=0):
    if not info:
        out.append(b"\0\0\0\0")
        return
    out.append(u32(len(info)))
    for k in sorted(info, key=str):
        out.append(string(str(k)))
        encode_item(info[k], out, depth)


def encode_item(v, out, depth):
    if v is None:
        out.append(b"\0")
    elif isinstance(v, (bool, np.bool_)):
        out.append(b"\x01\x01" if v else b"\x01\x00")
    elif isinstance(v, (int, np.integer)) and -(1 << 63) <= int(v) < (1 << 63):
        out.append(b"\x02" + struct.pack("<q", int(v)))
    elif isinstance(v, (float, np.floating)):
        out.append(b"\x03" + struct.pack("<d", float(v)))
    elif isinstance(v, str):
        out.append(b"\x04" + string(v))
    elif isinstance(v, np.ndarray) and v.dtype.newbyteorder("<") in CODES:
        a = np.ascontiguousarray(v, dtype=DTYPES[dtype_code(v.dtype)])
        out.append(bytes([5, dtype_code(v.dtype)]) + dims(a.shape) + a.tobytes())
    elif isinstance(v, dict) and depth < 16:
        out.append(b"\x06")
        encode_info(v, out, depth + 1)
    else:
        out.append(b"\x04" + string(repr(v)))


class Pipes:
    """Frames over the pipes: requests on fd 3, replies on fd 4."""

    def __init__(self, inp, out_fd):
        self.inp = inp
        self.out_fd = out_fd

    def send(self, typ, parts):
        body = b"".join(parts)
        frame = struct.pack("<IB", len(body) + 1, typ) + body
        view = memoryview(frame)
        while view:
            n = os.write(self.out_fd, view)
            view = view[n:]

    def send_value(self, typ, head, layout, value, info):
        out = [head]
        layout.encode(value, out)
        encode_info(info, out)
        self.send(typ, out)

    def read(self):
        hdr = self.inp.read(4)
        if len(hdr) == 0:
            return None, None
        if len(hdr) < 4:
            raise ProtocolError("frame header cut short")
        (n,) = struct.unpack("<I", hdr)
        if n == 0 or n > MAX_FRAME:
            raise ProtocolError("frame length %d outside [1, %d]" % (n, MAX_FRAME))
        body = self.inp.read(n)
        if len(body) < n:
            raise ProtocolError("frame of %d bytes cut short" % n)
        return body[0], body


# The shared region (see the doc of gorl's env/wire package): four 32-bit
# words on cache lines of their own, then the request and reply areas.
REQ_SEQ, RESP_SEQ, WORKER_SLEEP, PARENT_SLEEP = 0, 16, 32, 48  # in words
HEADER = 4096
AREA = 4 + MAX_FRAME + 4092
DOORBELL_FRAME = struct.pack("<IB", 1, DOORBELL)


class Shared:
    """Frames through the region the parent shared as fd 5; the pipes only
    wake a side that sleeps. The words are written with plain stores, which
    x86 keeps in program order (gorl offers the region only there)."""

    def __init__(self, in_fd, out_fd, spin_ns):
        self.mm = mmap.mmap(5, HEADER + 2 * AREA)
        os.close(5)
        self.words = memoryview(self.mm).cast("B")[:HEADER].cast("I")
        self.req = memoryview(self.mm)[HEADER:HEADER + AREA]
        self.resp = memoryview(self.mm)[HEADER + AREA:]
        self.in_fd = in_fd
        self.out_fd = out_fd
        self.spin = spin_ns
        self.last_in = self.words[REQ_SEQ]
        self.last_out = self.words[RESP_SEQ]

    def _publish(self, n):
        struct.pack_into("<I", self.resp, 0, n)
        self.last_out = (self.last_out + 1) & 0xFFFFFFFF
        self.words[RESP_SEQ] = self.last_out
        if self.words[PARENT_SLEEP]:
            os.write(self.out_fd, DOORBELL_FRAME)

    def send(self, typ, parts):
        body = b"".join(parts)
        if len(body) + 1 > MAX_FRAME:
            raise ProtocolError("reply of %d bytes exceeds the largest frame" % (len(body) + 1))
        self.resp[4] = typ
        self.resp[5:5 + len(body)] = body
        self._publish(len(body) + 1)

    def send_value(self, typ, head, layout, value, info):
        out = []
        encode_info(info, out)
        tail = b"".join(out)
        n = 5 + len(head)
        if n + layout.nbytes + len(tail) > 4 + MAX_FRAME:
            raise ProtocolError("reply exceeds the largest frame")
        self.resp[4] = typ
        self.resp[5:n] = head
        n = layout.write(value, self.resp, n)
        self.resp[n:n + len(tail)] = tail
        self._publish(n + len(tail) - 4)

    def wait(self):
        """Returns False when the parent has gone."""
        words, last = self.words, self.last_in
        if words[REQ_SEQ] != last:
            return True
        end = time.perf_counter_ns() + self.spin
        while time.perf_counter_ns() < end:
            for _ in range(16):
                if words[REQ_SEQ] != last:
                    return True
        words[WORKER_SLEEP] = 1
        try:
            # The first sleep is bounded: the store of the flag may reach the
            # parent after this side's read of its counter.
            timeout = 0.001
            while words[REQ_SEQ] == last:
                ready, _, _ = select.select([self.in_fd], [], [], timeout)
                timeout = None
                if not ready:
                    continue
                b = os.read(self.in_fd, 4096)
                if not b:
                    return False
                if len(b) % 5 or b != DOORBELL_FRAME * (len(b) // 5):
                    raise ProtocolError("bytes other than doorbells on the request pipe")
            return True
        finally:
            words[WORKER_SLEEP] = 0

    def read(self):
        if not self.wait():
            return None, None
        self.last_in = self.words[REQ_SEQ]
        (n,) = struct.unpack_from("<I", self.req, 0)
        if n == 0 or n > MAX_FRAME:
            raise ProtocolError("frame length %d outside [1, %d]" % (n, MAX_FRAME))
        return self.req[4], self.req[4:4 + n]


class Worker:
    def __init__(self, transport):
        self.t = transport
        self.hello_t = transport

    def send(self, typ, parts):
        self.t.send(typ, parts)

    def error(self, kind, message, tb=""):
        self.send(ERROR, [string(kind), string(message), string(tb)])

    def serve(self, env, name):
        obs_l = Layout(env.observation_space)
        act_l = Layout(env.action_space)
        flags = 1 if getattr(env, "render_mode", None) == "rgb_array" else 0
        if self.t is not self.hello_t:
            flags |= 2
        self.hello_t.send(HELLO, [MAGIC, struct.pack("<HB", VERSION, flags), string(name),
                                  encode_space(env.observation_space), encode_space(env.action_space)])
        pack_step = struct.Struct("<dB").pack
        while True:
            typ, body = self.t.read()
            if typ is None:
                return
            if typ == STEP:
                try:
                    action = act_l.decode(body, 1)
                except ProtocolError as e:
                    self.error("protocol", str(e))
                    raise
                try:
                    obs, rew, term, trunc, info = env.step(action)
                    self.t.send_value(STEP_OK, pack_step(float(rew), (1 if term else 0) | (2 if trunc else 0)),
                                      obs_l, obs, info)
                except ProtocolError:
                    raise
                except Exception as e:
                    self.error("exception", "%s: %s" % (type(e).__name__, e), traceback.format_exc())
            elif typ == RESET:
                if len(body) < 14:
                    self.error("protocol", "reset frame of %d bytes" % len(body))
                    raise ProtocolError("short reset frame")
                seeded, seed, olen = struct.unpack_from("<BQI", body, 1)
                try:
                    options = json.loads(bytes(body[14:14 + olen]).decode()) if olen else None
                    obs, info = env.reset(seed=seed if seeded else None, options=options)
                    self.t.send_value(RESET_OK, b"", obs_l, obs, info)
                except ProtocolError:
                    raise
                except Exception as e:
                    self.error("exception", "%s: %s" % (type(e).__name__, e), traceback.format_exc())
            elif typ == RENDER:
                try:
                    frame = np.ascontiguousarray(env.render(), dtype=np.uint8)
                    if frame.ndim != 3 or frame.shape[2] != 3:
                        raise ValueError("render returned an array of shape %s, not (height, width, 3)" % (frame.shape,))
                except Exception as e:
                    self.error("exception", "%s: %s" % (type(e).__name__, e), traceback.format_exc())
                    continue
                self.send(FRAME, [struct.pack("<II", frame.shape[0], frame.shape[1]), frame.tobytes()])
            elif typ == CLOSE:
                try:
                    if hasattr(env, "close"):
                        env.close()
                except Exception as e:
                    self.error("exception", "%s: %s" % (type(e).__name__, e), traceback.format_exc())
                    return
                self.send(CLOSED, [])
                return
            else:
                self.error("protocol", "unknown request type 0x%02x" % typ)
                raise ProtocolError("unknown request type 0x%02x" % typ)


def make_env(args):
    kwargs = json.loads(args.kwargs) if args.kwargs else {}
    if args.render:
        kwargs["render_mode"] = "rgb_array"
    if args.env:
        import gymnasium
        return gymnasium.make(args.env, **kwargs), args.env
    module, _, attr = args.factory.partition(":")
    fn = importlib.import_module(module)
    for part in attr.split("."):
        fn = getattr(fn, part)
    return fn(**kwargs), args.factory


def main(argv=None):
    p = argparse.ArgumentParser(description="Serve a Gymnasium env to gorl.")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--env", help="a Gymnasium env id, made with gymnasium.make")
    g.add_argument("--factory", help="module:callable returning an env")
    p.add_argument("--kwargs", default="", help="keyword arguments of the make, a JSON object")
    p.add_argument("--render", action="store_true", help="make the env with render_mode='rgb_array'")
    args = p.parse_args(argv)
    pipes = Pipes(os.fdopen(3, "rb", buffering=1 << 16), 4)
    worker = Worker(pipes)
    spin = os.environ.pop("GORL_WIRE_SHM", None)
    try:
        env, name = make_env(args)
    except BaseException as e:
        worker.error("exception", "%s: %s" % (type(e).__name__, e), traceback.format_exc())
        return 1
    if spin is not None:
        worker.t = Shared(3, 4, int(spin))
    try:
        worker.serve(env, name)
    except ProtocolError as e:
        print("gorl_gymbridge: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
