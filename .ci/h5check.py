#!/usr/bin/env python3
"""Check HDF5 files against a JSON description with h5py, or write one.

    h5check.py check FILE.h5 SPEC.json   exit 0 if h5py reads exactly SPEC from FILE.h5
    h5check.py write FILE.h5 SPEC.json   write SPEC into FILE.h5 with h5py

SPEC describes the root group. A group is
    {"kind": "group", "attrs": {NAME: VALUE, ...}, "members": {NAME: NODE, ...}}
a dataset is
    {"kind": "dataset", "dtype": DTYPE, "shape": [d0, d1, ...], "data": [...],
     "attrs": {...}, "compression": "gzip"}
(write only: "compression"; "unwritten": true creates the dataset without
writing its data, and "data" may be empty; "external": true stores the data in
the raw file FILE.h5.NAME.raw instead of in FILE.h5),
a soft link is {"kind": "softlink", "target": "/path"}, and an attribute
VALUE is {"dtype": DTYPE, "shape": [...], "data": [...]}.

"data" lists the elements in row-major order (one element for shape []).
Floats JSON cannot carry exactly are strings float() parses: "nan", "inf",
"-inf" and "-0.0" (json reads -0 as the integer 0).
DTYPE is a numpy dtype string ("bool", "int8", ">i4", "float32", "S5", ...),
"str" for h5py.string_dtype() (variable-length UTF-8), "str-ascii" for
variable-length ASCII, or a list of [name, dtype] pairs for a compound type
(write only; its elements are lists).

"check" compares the whole tree: no member or attribute may be missing or
extra; dtypes, shapes and values must match exactly (NaN matches NaN, and
0.0 does not match -0.0). It prints every difference.
"""

import json
import math
import sys

import h5py
import numpy as np


def parse_dtype(spec):
    if spec == "str":
        return h5py.string_dtype("utf-8")
    if spec == "str-ascii":
        return h5py.string_dtype("ascii")
    if isinstance(spec, list):
        return np.dtype([(name, dt) for name, dt in spec])
    return np.dtype(spec)


def to_array(node):
    dt = parse_dtype(node["dtype"])
    shape = tuple(node["shape"])
    data = node["data"]
    if h5py.check_string_dtype(dt) is not None and dt.kind == "O":
        arr = np.array(data, dtype=object)
    elif dt.kind == "f":
        arr = np.array([float(x) for x in data], dtype=dt)  # float("nan") etc.
    elif dt.kind == "S":
        arr = np.array([x.encode("utf-8") for x in data], dtype=dt)
    elif dt.names is not None:
        arr = np.array([tuple(x) for x in data], dtype=dt)
    else:
        arr = np.array(data, dtype=dt)
    return arr.reshape(shape), dt


def write_attrs(obj, attrs):
    for name, node in attrs.items():
        arr, dt = to_array(node)
        obj.attrs.create(name, arr, dtype=dt)


def write_group(grp, node):
    write_attrs(grp, node.get("attrs", {}))
    for name, child in node.get("members", {}).items():
        if child["kind"] == "group":
            write_group(grp.create_group(name), child)
        elif child["kind"] == "softlink":
            grp[name] = h5py.SoftLink(child["target"])
        else:
            kw = {}
            if "compression" in child:
                kw["compression"] = child["compression"]
            if child.get("unwritten"):
                shape = tuple(child["shape"])
                ds = grp.create_dataset(name, shape=shape, dtype=parse_dtype(child["dtype"]), **kw)
                write_attrs(ds, child.get("attrs", {}))
                continue
            arr, dt = to_array(child)
            if child.get("external"):
                raw = f"{grp.file.filename}.{name}.raw"
                kw["external"] = [(raw, 0, arr.nbytes)]
            ds = grp.create_dataset(name, data=arr, dtype=dt, **kw)
            write_attrs(ds, child.get("attrs", {}))


def same_float(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


class Checker:
    def __init__(self):
        self.errors = []

    def fail(self, path, msg):
        self.errors.append(f"{path}: {msg}")

    def check_values(self, path, want, dtype, shape, values):
        """values: a numpy array (or scalar) as h5py returned it."""
        want_dt = parse_dtype(want["dtype"])
        if want["dtype"] in ("str", "str-ascii"):
            info = h5py.check_string_dtype(dtype)
            want_enc = "utf-8" if want["dtype"] == "str" else "ascii"
            if info is None or info.length is not None or info.encoding != want_enc:
                self.fail(path, f"dtype {dtype!r} ({info}) is not a variable-length {want_enc} string")
                return
        elif dtype != want_dt:
            self.fail(path, f"dtype {dtype} != {want_dt}")
            return
        if tuple(shape) != tuple(want["shape"]):
            self.fail(path, f"shape {tuple(shape)} != {tuple(want['shape'])}")
            return
        got = np.asarray(values).reshape(-1).tolist()
        exp = want["data"]
        if len(got) != len(exp):
            self.fail(path, f"{len(got)} elements != {len(exp)}")
            return
        for i, (g, e) in enumerate(zip(got, exp)):
            if isinstance(g, bytes):
                g = g.decode("utf-8")
            if dtype.kind == "f":
                ok = same_float(g, float(e))
            else:
                ok = g == e and type(g) is type(e)
            if not ok:
                self.fail(path, f"element {i}: {g!r} != {e!r}")
                return

    def check_attrs(self, path, obj, want):
        got_names = set(obj.attrs.keys())
        want_names = set(want.keys())
        for name in sorted(got_names - want_names):
            self.fail(path, f"unexpected attribute {name!r}")
        for name in sorted(want_names - got_names):
            self.fail(path, f"missing attribute {name!r}")
        for name in sorted(got_names & want_names):
            aid = obj.attrs.get_id(name)
            value = obj.attrs[name]
            self.check_values(f"{path}@{name}", want[name], aid.dtype, aid.shape, value)

    def check_group(self, path, grp, want):
        self.check_attrs(path, grp, want.get("attrs", {}))
        members = want.get("members", {})
        got_names = set(grp.keys())
        for name in sorted(got_names - set(members)):
            self.fail(path, f"unexpected member {name!r}")
        for name in sorted(set(members) - got_names):
            self.fail(path, f"missing member {name!r}")
        for name in sorted(got_names & set(members)):
            cpath = path.rstrip("/") + "/" + name
            node = members[name]
            link = grp.get(name, getlink=True)
            if node["kind"] == "softlink":
                if not isinstance(link, h5py.SoftLink) or link.path != node["target"]:
                    self.fail(cpath, f"is not a soft link to {node['target']}")
                continue
            if not isinstance(link, h5py.HardLink):
                self.fail(cpath, "is a link, not a hard-linked object")
                continue
            child = grp[name]
            if node["kind"] == "group":
                if not isinstance(child, h5py.Group):
                    self.fail(cpath, "is not a group")
                    continue
                self.check_group(cpath, child, node)
                continue
            if not isinstance(child, h5py.Dataset):
                self.fail(cpath, "is not a dataset")
                continue
            if node["dtype"] in ("str", "str-ascii"):
                values = child.asstr()[()]
            else:
                values = child[()]
            self.check_values(cpath, node, child.dtype, child.shape, values)
            self.check_attrs(cpath, child, node.get("attrs", {}))


def main(argv):
    if len(argv) != 4 or argv[1] not in ("check", "write"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[3], encoding="utf-8") as f:
        spec = json.load(f)
    if argv[1] == "write":
        with h5py.File(argv[2], "w") as f:
            write_group(f, spec)
        return 0
    checker = Checker()
    with h5py.File(argv[2], "r") as f:
        checker.check_group("/", f, spec)
    for e in checker.errors:
        print(e)
    if checker.errors:
        print(f"{argv[2]}: {len(checker.errors)} difference(s) from {argv[3]}")
        return 1
    print(f"{argv[2]}: h5py reads exactly what {argv[3]} describes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
