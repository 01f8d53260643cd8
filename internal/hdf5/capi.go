//go:build hdf5 && cgo

package hdf5

/*
#cgo pkg-config: hdf5
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hdf5.h>

// gorl_vlen_string returns a new variable-length C string type of character
// set cset, or a negative id.
static hid_t gorl_vlen_string(H5T_cset_t cset) {
	hid_t t = H5Tcopy(H5T_C_S1);
	if (t < 0) return -1;
	if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, cset) < 0) {
		H5Tclose(t);
		return -1;
	}
	return t;
}

// gorl_new_type returns a new datatype for the Go element type code (the
// order of elem in hdf5.go): the type stored in files when file is nonzero,
// the type of Go memory otherwise. It returns a negative id on failure.
static hid_t gorl_new_type(int code, int file) {
	hid_t base;
	switch (code) {
	case 0: {
		// h5py's numpy bool: an enum over int8 with FALSE=0 and TRUE=1.
		signed char no = 0, yes = 1;
		hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
		if (t < 0) return -1;
		if (H5Tenum_insert(t, "FALSE", &no) < 0 || H5Tenum_insert(t, "TRUE", &yes) < 0) {
			H5Tclose(t);
			return -1;
		}
		return t;
	}
	case 1:  base = file ? H5T_STD_I8LE : H5T_NATIVE_INT8; break;
	case 2:  base = file ? H5T_STD_I16LE : H5T_NATIVE_INT16; break;
	case 3:  base = file ? H5T_STD_I32LE : H5T_NATIVE_INT32; break;
	case 4:  base = file ? H5T_STD_I64LE : H5T_NATIVE_INT64; break;
	case 5:  base = file ? H5T_STD_U8LE : H5T_NATIVE_UINT8; break;
	case 6:  base = file ? H5T_STD_U16LE : H5T_NATIVE_UINT16; break;
	case 7:  base = file ? H5T_STD_U32LE : H5T_NATIVE_UINT32; break;
	case 8:  base = file ? H5T_STD_U64LE : H5T_NATIVE_UINT64; break;
	case 9:  base = file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT; break;
	case 10: base = file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE; break;
	case 11: return gorl_vlen_string(H5T_CSET_UTF8);
	default: return -1;
	}
	return H5Tcopy(base);
}

// gorl_close closes an identifier of any kind this package opens.
static herr_t gorl_close(hid_t id) {
	switch (H5Iget_type(id)) {
	case H5I_GROUP:       return H5Gclose(id);
	case H5I_DATATYPE:    return H5Tclose(id);
	case H5I_DATASPACE:   return H5Sclose(id);
	case H5I_DATASET:     return H5Dclose(id);
	case H5I_ATTR:        return H5Aclose(id);
	case H5I_GENPROP_LST: return H5Pclose(id);
	default:              return -1;
	}
}

// gorl_fapl returns the file access properties of every file: close all its
// objects when the file closes, lock the file where the file system supports
// locking, and write the HDF5 1.8 format, whose metadata carries checksums.
static hid_t gorl_fapl(void) {
	hid_t p = H5Pcreate(H5P_FILE_ACCESS);
	if (p < 0) return -1;
	if (H5Pset_fclose_degree(p, H5F_CLOSE_STRONG) < 0 || H5Pset_file_locking(p, 1, 1) < 0 ||
	    H5Pset_libver_bounds(p, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) {
		H5Pclose(p);
		return -1;
	}
	return p;
}

// gorl_create_plist returns link (attr == 0) or attribute creation
// properties marking new names as UTF-8.
static hid_t gorl_create_plist(int attr) {
	hid_t p = H5Pcreate(attr ? H5P_ATTRIBUTE_CREATE : H5P_LINK_CREATE);
	if (p < 0) return -1;
	if (H5Pset_char_encoding(p, H5T_CSET_UTF8) < 0) {
		H5Pclose(p);
		return -1;
	}
	return p;
}

static hid_t gorl_fcreate(const char *path, hid_t fapl) {
	return H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
}

static hid_t gorl_fopen(const char *path, hid_t fapl) {
	return H5Fopen(path, H5F_ACC_RDONLY, fapl);
}

// gorl_prepare silences the automatic printing of errors and clears the
// error stack of the calling thread.
static herr_t gorl_prepare(void) {
	if (H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0) return -1;
	return H5Eclear2(H5E_DEFAULT);
}

typedef struct {
	unsigned count;
	char first[256];
	char last[512];
} gorl_stack;

static herr_t gorl_walk(unsigned n, const H5E_error2_t *e, void *data) {
	gorl_stack *s = data;
	const char *d = e->desc ? e->desc : "";
	if (s->count == 0) snprintf(s->first, sizeof s->first, "%s", d);
	snprintf(s->last, sizeof s->last, "%s", d);
	s->count++;
	return 0;
}

// gorl_error writes the description of the outermost error on the calling
// thread's error stack, followed by the innermost one (the cause) in
// parentheses when they differ, into out, and clears the stack.
static void gorl_error(char *out, size_t size) {
	gorl_stack s;
	memset(&s, 0, sizeof s);
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, gorl_walk, &s);
	H5Eclear2(H5E_DEFAULT);
	if (s.count == 0) {
		snprintf(out, size, "HDF5 call failed without an error description");
	} else if (s.count == 1 || strcmp(s.first, s.last) == 0) {
		snprintf(out, size, "%s", s.first);
	} else {
		snprintf(out, size, "%s (%s)", s.first, s.last);
	}
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unsafe"
)

func init() { lib = capi{} }

// capi implements library with the HDF5 C API.
type capi struct{}

// initialized records that the library was initialized; guarded by mu.
var initialized bool

// pDefault is H5P_DEFAULT, the default property list; H5S_ALL has the same value.
const pDefault C.hid_t = 0

// unbacked is how many bytes a read may allocate beyond what the file stores
// for the dataset or attribute (unwritten chunks read as fill values).
const unbacked = 16 << 20

// maxFilterRatio bounds how much a filter pipeline may expand stored bytes:
// deflate, the filter h5py and Tianshou use, expands at most 1032-fold.
const maxFilterRatio = 1100

// stackError returns the calling thread's HDF5 error stack as an error and
// clears it.
func stackError() error {
	var buf [800]C.char
	C.gorl_error(&buf[0], C.size_t(len(buf)))
	return errors.New(C.GoString(&buf[0]))
}

// release closes id and, if *err is nil, records a failure to close in it.
func release(id C.hid_t, err *error) {
	if C.gorl_close(id) < 0 && *err == nil {
		*err = stackError()
	}
}

// cstring returns path as a C string and the function that frees it.
func cstring(s string) (*C.char, func()) {
	c := C.CString(s)
	return c, func() { C.free(unsafe.Pointer(c)) }
}

func (capi) prepare() error {
	if !initialized {
		if C.H5open() < 0 {
			return errors.New("HDF5 library failed to initialize")
		}
		// Never load filter plugins named by a file: reading a file must not
		// run code from outside this process.
		if C.H5PLset_loading_state(0) < 0 {
			return stackError()
		}
		initialized = true
	}
	if C.gorl_prepare() < 0 {
		return errors.New("cannot silence HDF5 error printing")
	}
	return nil
}

func (capi) create(path string) (file int64, err error) {
	return openWith(path, true)
}

func (capi) open(path string) (file int64, err error) {
	cpath, free := cstring(path)
	defer free()
	switch C.H5Fis_hdf5(cpath) {
	case 0:
		return 0, errors.New("not an HDF5 file (no HDF5 signature)")
	case 1:
	default:
		return 0, stackError()
	}
	return openWith(path, false)
}

func openWith(path string, create bool) (file int64, err error) {
	cpath, free := cstring(path)
	defer free()
	fapl := C.gorl_fapl()
	if fapl < 0 {
		return 0, stackError()
	}
	defer release(fapl, &err)
	var id C.hid_t
	if create {
		id = C.gorl_fcreate(cpath, fapl)
	} else {
		id = C.gorl_fopen(cpath, fapl)
	}
	if id < 0 {
		return 0, stackError()
	}
	return int64(id), nil
}

func (capi) closeFile(file int64) error {
	// Every operation closes what it opens before it returns, so nothing but
	// the file may be open now; the strong close degree would close leftovers,
	// but they would mean a bug here.
	var err error
	left := C.H5Fget_obj_count(C.hid_t(file), C.H5F_OBJ_DATASET|C.H5F_OBJ_GROUP|C.H5F_OBJ_DATATYPE|C.H5F_OBJ_ATTR)
	if left < 0 {
		err = stackError()
	}
	if C.H5Fclose(C.hid_t(file)) < 0 {
		return stackError()
	}
	if left > 0 {
		return fmt.Errorf("internal error: %d HDF5 objects were left open", left)
	}
	return err
}

func (capi) createGroup(file int64, path string) (err error) {
	cpath, free := cstring(path)
	defer free()
	lcpl := C.gorl_create_plist(0)
	if lcpl < 0 {
		return stackError()
	}
	defer release(lcpl, &err)
	g := C.H5Gcreate2(C.hid_t(file), cpath, lcpl, pDefault, pDefault)
	if g < 0 {
		return stackError()
	}
	release(g, &err)
	return err
}

// kindOf maps an HDF5 object type to a Kind.
func kindOf(t C.H5O_type_t) (Kind, error) {
	switch t {
	case C.H5O_TYPE_GROUP:
		return KindGroup, nil
	case C.H5O_TYPE_DATASET:
		return KindDataset, nil
	case C.H5O_TYPE_NAMED_DATATYPE:
		return KindDatatype, nil
	}
	return 0, fmt.Errorf("object of unknown HDF5 type %d", int(t))
}

func (capi) kind(file int64, path string) (Kind, error) {
	if path == "/" {
		return KindGroup, nil
	}
	cpath, free := cstring(path)
	defer free()
	switch C.H5Lexists(C.hid_t(file), cpath, pDefault) {
	case 0:
		return 0, errNotFound
	case 1:
	default:
		return 0, stackError()
	}
	var li C.H5L_info_t
	if C.H5Lget_info(C.hid_t(file), cpath, &li, pDefault) < 0 {
		return 0, stackError()
	}
	if li._type != C.H5L_TYPE_HARD {
		return KindLink, nil
	}
	var oi C.H5O_info_t
	if C.H5Oget_info_by_name2(C.hid_t(file), cpath, &oi, C.H5O_INFO_BASIC, pDefault) < 0 {
		return 0, stackError()
	}
	return kindOf(oi._type)
}

// dot is the C string ".", naming the object itself in by-index queries.
var dot = C.CString(".")

func (capi) members(file int64, path string) (ms []Member, err error) {
	cpath, free := cstring(path)
	defer free()
	g := C.H5Gopen2(C.hid_t(file), cpath, pDefault)
	if g < 0 {
		return nil, stackError()
	}
	defer release(g, &err)
	var gi C.H5G_info_t
	if C.H5Gget_info(g, &gi) < 0 {
		return nil, stackError()
	}
	ms = []Member{}
	for i := C.hsize_t(0); i < gi.nlinks; i++ {
		name, err := nameByIndex(func(buf *C.char, size C.size_t) C.ssize_t {
			return C.H5Lget_name_by_idx(g, dot, C.H5_INDEX_NAME, C.H5_ITER_INC, i, buf, size, pDefault)
		})
		if err != nil {
			return nil, err
		}
		var li C.H5L_info_t
		if C.H5Lget_info_by_idx(g, dot, C.H5_INDEX_NAME, C.H5_ITER_INC, i, &li, pDefault) < 0 {
			return nil, stackError()
		}
		k := KindLink
		if li._type == C.H5L_TYPE_HARD {
			var oi C.H5O_info_t
			if C.H5Oget_info_by_idx2(g, dot, C.H5_INDEX_NAME, C.H5_ITER_INC, i, &oi, C.H5O_INFO_BASIC, pDefault) < 0 {
				return nil, stackError()
			}
			if k, err = kindOf(oi._type); err != nil {
				return nil, err
			}
		}
		ms = append(ms, Member{Name: name, Kind: k})
	}
	return ms, nil
}

// nameByIndex calls get twice, as HDF5's by-index name queries expect: first
// for the length, then to fill a buffer of that length plus the NUL.
func nameByIndex(get func(buf *C.char, size C.size_t) C.ssize_t) (string, error) {
	n := get(nil, 0)
	if n < 0 {
		return "", stackError()
	}
	buf := make([]C.char, n+1)
	if get(&buf[0], C.size_t(len(buf))) < 0 {
		return "", stackError()
	}
	return C.GoStringN(&buf[0], C.int(n)), nil
}

// newSpace returns a new dataspace of the given shape: scalar for an empty shape.
func newSpace(shape []int) C.hid_t {
	if len(shape) == 0 {
		return C.H5Screate(C.H5S_SCALAR)
	}
	dims := make([]C.hsize_t, len(shape))
	for i, d := range shape {
		dims[i] = C.hsize_t(d)
	}
	return C.H5Screate_simple(C.int(len(dims)), &dims[0], nil)
}

// newTypes returns the file and memory datatypes of e.
func newTypes(e elem) (ftype, mtype C.hid_t, err error) {
	ftype = C.gorl_new_type(C.int(e), 1)
	if ftype < 0 {
		return 0, 0, stackError()
	}
	mtype = C.gorl_new_type(C.int(e), 0)
	if mtype < 0 {
		err = stackError()
		release(ftype, &err)
		return 0, 0, err
	}
	return ftype, mtype, nil
}

// writeValues passes data, a non-empty slice of a supported type, to write
// with mem, its memory datatype. Strings are copied into one C block of
// pointers followed by the NUL-terminated strings.
func writeValues(data any, mem C.hid_t, write func(mem C.hid_t, buf unsafe.Pointer) C.herr_t) error {
	var buf unsafe.Pointer
	if ss, ok := data.([]string); ok {
		ptrSize := int(unsafe.Sizeof((*C.char)(nil)))
		size := len(ss) * ptrSize
		for _, s := range ss {
			size += len(s) + 1
		}
		block := C.malloc(C.size_t(size))
		if block == nil {
			return errors.New("out of C memory for strings")
		}
		defer C.free(block)
		ptrs := unsafe.Slice((**C.char)(block), len(ss))
		chars := unsafe.Slice((*byte)(block), size)[len(ss)*ptrSize:]
		for i, s := range ss {
			ptrs[i] = (*C.char)(unsafe.Pointer(&chars[0]))
			copy(chars, s)
			chars[len(s)] = 0
			chars = chars[len(s)+1:]
		}
		buf = block
	} else {
		buf = reflect.ValueOf(data).UnsafePointer()
	}
	if write(mem, buf) < 0 {
		return stackError()
	}
	return nil
}

func (capi) writeDataset(file int64, path string, data any, shape []int) (err error) {
	e, n, _ := elemOf(data)
	cpath, free := cstring(path)
	defer free()
	ftype, mtype, err := newTypes(e)
	if err != nil {
		return err
	}
	defer release(ftype, &err)
	defer release(mtype, &err)
	space := newSpace(shape)
	if space < 0 {
		return stackError()
	}
	defer release(space, &err)
	lcpl := C.gorl_create_plist(0)
	if lcpl < 0 {
		return stackError()
	}
	defer release(lcpl, &err)
	ds := C.H5Dcreate2(C.hid_t(file), cpath, ftype, space, lcpl, pDefault, pDefault)
	if ds < 0 {
		return stackError()
	}
	if n > 0 {
		err = writeValues(data, mtype, func(mem C.hid_t, buf unsafe.Pointer) C.herr_t {
			return C.H5Dwrite(ds, mem, pDefault, pDefault, pDefault, buf)
		})
	}
	release(ds, &err)
	if err != nil {
		// Leave no half-written dataset behind; the unlink can only fail
		// with the file already in trouble, and err says why.
		if C.H5Ldelete(C.hid_t(file), cpath, pDefault) < 0 {
			C.H5Eclear2(0)
		}
	}
	return err
}

// layout describes how a stored datatype is read into Go memory.
type layout struct {
	e       elem
	vlen    bool        // variable-length string
	size    int         // bytes per element in Go or C memory
	strpad  C.H5T_str_t // padding of fixed-length strings
	cset    C.H5T_cset_t
	boolean bool // h5py's bool enum, read through uint8
}

// classNames names HDF5's datatype classes in errors.
var classNames = map[C.H5T_class_t]string{
	C.H5T_INTEGER: "integer", C.H5T_FLOAT: "float", C.H5T_TIME: "time",
	C.H5T_STRING: "string", C.H5T_BITFIELD: "bitfield", C.H5T_OPAQUE: "opaque",
	C.H5T_COMPOUND: "compound", C.H5T_REFERENCE: "reference", C.H5T_ENUM: "enum",
	C.H5T_VLEN: "variable-length sequence", C.H5T_ARRAY: "array",
}

func unsupportedClass(class C.H5T_class_t, detail string) error {
	name, ok := classNames[class]
	if !ok {
		name = fmt.Sprintf("%d", int(class))
	}
	return fmt.Errorf("%w: HDF5 class %s%s", ErrDatatype, name, detail)
}

var intElems = [2][9]elem{
	{1: elemUint8, 2: elemUint16, 4: elemUint32, 8: elemUint64},
	{1: elemInt8, 2: elemInt16, 4: elemInt32, 8: elemInt64},
}

// classify returns how values of the stored datatype t are read.
func classify(t C.hid_t) (layout, error) {
	class := C.H5Tget_class(t)
	size := int(C.H5Tget_size(t))
	if class < 0 || size == 0 {
		return layout{}, stackError()
	}
	switch class {
	case C.H5T_INTEGER:
		sign := C.H5Tget_sign(t)
		if sign < 0 {
			return layout{}, stackError()
		}
		signed := 0
		if sign != C.H5T_SGN_NONE {
			signed = 1
		}
		switch size {
		case 1, 2, 4, 8:
			return layout{e: intElems[signed][size], size: size}, nil
		}
		return layout{}, unsupportedClass(class, fmt.Sprintf(" of %d bytes", size))
	case C.H5T_FLOAT:
		switch size {
		case 4:
			return layout{e: elemFloat32, size: 4}, nil
		case 8:
			return layout{e: elemFloat64, size: 8}, nil
		}
		return layout{}, unsupportedClass(class, fmt.Sprintf(" of %d bytes", size))
	case C.H5T_STRING:
		l := layout{e: elemString, cset: C.H5Tget_cset(t)}
		if l.cset < 0 {
			return layout{}, stackError()
		}
		switch C.H5Tis_variable_str(t) {
		case 1:
			l.vlen = true
			l.size = int(unsafe.Sizeof((*C.char)(nil)))
		case 0:
			l.size = size
			if l.strpad = C.H5Tget_strpad(t); l.strpad < 0 {
				return layout{}, stackError()
			}
		default:
			return layout{}, stackError()
		}
		return l, nil
	case C.H5T_ENUM:
		ok, err := isBoolEnum(t)
		if err != nil {
			return layout{}, err
		}
		if ok {
			return layout{e: elemBool, size: 1, boolean: true}, nil
		}
		return layout{}, unsupportedClass(class, " (only h5py's bool enum {FALSE, TRUE} is supported)")
	}
	return layout{}, unsupportedClass(class, "")
}

// isBoolEnum reports whether the enum type t has exactly the members FALSE and
// TRUE, as h5py's bool. Conversion to the memory bool type goes by name.
func isBoolEnum(t C.hid_t) (bool, error) {
	n := C.H5Tget_nmembers(t)
	if n < 0 {
		return false, stackError()
	}
	if n != 2 {
		return false, nil
	}
	var names [2]string
	for i := range names {
		c := C.H5Tget_member_name(t, C.uint(i))
		if c == nil {
			return false, stackError()
		}
		names[i] = C.GoString(c)
		C.H5free_memory(unsafe.Pointer(c))
	}
	return (names[0] == "FALSE" && names[1] == "TRUE") || (names[0] == "TRUE" && names[1] == "FALSE"), nil
}

// extent returns the shape and element count of a dataspace.
func extent(space C.hid_t) (shape []int, n int, err error) {
	switch C.H5Sget_simple_extent_type(space) {
	case C.H5S_SCALAR:
		return []int{}, 1, nil
	case C.H5S_NULL:
		return nil, 0, errors.New("null dataspace (no elements, not even an empty array) is not supported")
	case C.H5S_SIMPLE:
	default:
		return nil, 0, stackError()
	}
	rank := C.H5Sget_simple_extent_ndims(space)
	if rank < 0 {
		return nil, 0, stackError()
	}
	if rank == 0 {
		return []int{}, 1, nil
	}
	dims := make([]C.hsize_t, rank)
	if C.H5Sget_simple_extent_dims(space, &dims[0], nil) < 0 {
		return nil, 0, stackError()
	}
	shape = make([]int, rank)
	n = 1
	for i, d := range dims {
		if uint64(d) > math.MaxInt {
			return nil, 0, fmt.Errorf("dimension %d of %d elements is too large", i, uint64(d))
		}
		shape[i] = int(d)
		if shape[i] != 0 && n > math.MaxInt/shape[i] {
			return nil, 0, fmt.Errorf("shape %v has more elements than an int can count", dims)
		}
		n *= shape[i]
	}
	return shape, n, nil
}

// readValues reads all elements of a dataset or attribute of stored datatype
// ftype and dataspace space, refusing to allocate more than limit bytes; read
// does the H5Dread or H5Aread of everything into buf as memory type mem.
func readValues(ftype, space C.hid_t, limit uint64, read func(mem C.hid_t, buf unsafe.Pointer) C.herr_t) (data any, shape []int, err error) {
	l, err := classify(ftype)
	if err != nil {
		return nil, nil, err
	}
	shape, n, err := extent(space)
	if err != nil {
		return nil, nil, err
	}
	if need := uint64(n) * uint64(l.size); uint64(n) > math.MaxUint64/uint64(l.size) || need > limit {
		return nil, nil, fmt.Errorf("%d elements of %d bytes exceed the %d bytes the file can justify", n, l.size, limit)
	}
	var mem C.hid_t
	switch {
	case l.e != elemString:
		mem = C.gorl_new_type(C.int(l.e), 0)
	case l.vlen:
		mem = C.gorl_vlen_string(l.cset)
	default:
		mem = C.H5Tcopy(ftype)
	}
	if mem < 0 {
		return nil, nil, stackError()
	}
	defer release(mem, &err)

	if l.e == elemString {
		data, err = readStrings(l, n, mem, space, read)
		return data, shape, err
	}
	if l.boolean {
		b := make([]uint8, n)
		if n > 0 && read(mem, unsafe.Pointer(&b[0])) < 0 {
			return nil, nil, stackError()
		}
		for i, v := range b {
			if v > 1 {
				return nil, nil, fmt.Errorf("bool element %d holds %d, neither FALSE nor TRUE", i, v)
			}
		}
		return unsafe.Slice((*bool)(unsafe.Pointer(unsafe.SliceData(b))), n), shape, nil
	}
	s := reflect.MakeSlice(reflect.SliceOf(goTypes[l.e]), n, n)
	if n > 0 && read(mem, s.UnsafePointer()) < 0 {
		return nil, nil, stackError()
	}
	return s.Interface(), shape, nil
}

// goTypes are the Go element types of the numeric elems.
var goTypes = [...]reflect.Type{
	elemInt8: reflect.TypeFor[int8](), elemInt16: reflect.TypeFor[int16](),
	elemInt32: reflect.TypeFor[int32](), elemInt64: reflect.TypeFor[int64](),
	elemUint8: reflect.TypeFor[uint8](), elemUint16: reflect.TypeFor[uint16](),
	elemUint32: reflect.TypeFor[uint32](), elemUint64: reflect.TypeFor[uint64](),
	elemFloat32: reflect.TypeFor[float32](), elemFloat64: reflect.TypeFor[float64](),
}

// readStrings reads n strings of layout l. Variable-length strings arrive as
// C pointers HDF5 allocates; they are copied, then reclaimed.
func readStrings(l layout, n int, mem, space C.hid_t, read func(mem C.hid_t, buf unsafe.Pointer) C.herr_t) (ss []string, err error) {
	ss = make([]string, n)
	if n == 0 {
		return ss, nil
	}
	if !l.vlen {
		b := make([]byte, n*l.size)
		if read(mem, unsafe.Pointer(&b[0])) < 0 {
			return nil, stackError()
		}
		for i := range ss {
			s := b[i*l.size : (i+1)*l.size]
			if l.strpad == C.H5T_STR_SPACEPAD {
				s = []byte(strings.TrimRight(string(s), " "))
			} else if j := strings.IndexByte(string(s), 0); j >= 0 {
				s = s[:j]
			}
			ss[i] = string(s)
		}
		return ss, nil
	}
	ptrs := C.calloc(C.size_t(n), C.size_t(l.size))
	if ptrs == nil {
		return nil, errors.New("out of C memory for string pointers")
	}
	defer C.free(ptrs)
	if read(mem, ptrs) < 0 {
		err = stackError()
	} else {
		for i, p := range unsafe.Slice((**C.char)(ptrs), n) {
			if p != nil {
				ss[i] = C.GoString(p)
			}
		}
	}
	// Unfilled pointers are NULL (calloc), so reclaiming after a failed read
	// frees whatever HDF5 allocated before failing.
	if C.H5Dvlen_reclaim(mem, space, pDefault, ptrs) < 0 && err == nil {
		err = stackError()
	}
	if err != nil {
		return nil, err
	}
	return ss, nil
}

func (capi) readDataset(file int64, path string) (data any, shape []int, err error) {
	cpath, free := cstring(path)
	defer free()
	ds := C.H5Dopen2(C.hid_t(file), cpath, pDefault)
	if ds < 0 {
		return nil, nil, stackError()
	}
	defer release(ds, &err)
	limit, err := datasetLimit(file, ds)
	if err != nil {
		return nil, nil, err
	}
	ftype := C.H5Dget_type(ds)
	if ftype < 0 {
		return nil, nil, stackError()
	}
	defer release(ftype, &err)
	space := C.H5Dget_space(ds)
	if space < 0 {
		return nil, nil, stackError()
	}
	defer release(space, &err)
	return readValues(ftype, space, limit, func(mem C.hid_t, buf unsafe.Pointer) C.herr_t {
		return C.H5Dread(ds, mem, pDefault, pDefault, pDefault, buf)
	})
}

// datasetLimit returns how many bytes reading the dataset may allocate: what
// the file stores for it, expanded by at most maxFilterRatio if it is
// filtered (compressed), plus unbacked. Datasets whose data lives outside the
// file (external storage, virtual datasets) are refused.
func datasetLimit(file int64, ds C.hid_t) (limit uint64, err error) {
	dcpl := C.H5Dget_create_plist(ds)
	if dcpl < 0 {
		return 0, stackError()
	}
	defer release(dcpl, &err)
	switch C.H5Pget_layout(dcpl) {
	case C.H5D_COMPACT, C.H5D_CONTIGUOUS, C.H5D_CHUNKED:
	case C.H5D_VIRTUAL:
		return 0, errors.New("virtual datasets (data in other datasets or files) are not supported")
	default:
		return 0, stackError()
	}
	switch ext := C.H5Pget_external_count(dcpl); {
	case ext < 0:
		return 0, stackError()
	case ext > 0:
		return 0, errors.New("datasets stored in external files are not supported")
	}
	filters := C.H5Pget_nfilters(dcpl)
	if filters < 0 {
		return 0, stackError()
	}
	ratio := uint64(1)
	if filters > 0 {
		ratio = maxFilterRatio
	}
	return readLimit(file, uint64(C.H5Dget_storage_size(ds)), ratio)
}

// readLimit returns the bytes a read may allocate for an object that stores
// stored bytes, expanded by at most ratio: stored (but never more than the
// whole file, whatever a damaged index claims) times ratio, plus unbacked.
func readLimit(file int64, stored, ratio uint64) (uint64, error) {
	var size C.hsize_t
	if C.H5Fget_filesize(C.hid_t(file), &size) < 0 {
		return 0, stackError()
	}
	stored = min(stored, uint64(size))
	if stored > (math.MaxUint64-unbacked)/ratio {
		return math.MaxUint64, nil
	}
	return stored*ratio + unbacked, nil
}

// openObject opens the group or dataset at path.
func openObject(file int64, path string) (C.hid_t, error) {
	cpath, free := cstring(path)
	defer free()
	o := C.H5Oopen(C.hid_t(file), cpath, pDefault)
	if o < 0 {
		return 0, stackError()
	}
	return o, nil
}

func (capi) setAttr(file int64, obj, name string, data any, shape []int) (err error) {
	e, n, _ := elemOf(data)
	o, err := openObject(file, obj)
	if err != nil {
		return err
	}
	defer release(o, &err)
	cname, free := cstring(name)
	defer free()
	switch C.H5Aexists(o, cname) {
	case 0:
	case 1:
		if C.H5Adelete(o, cname) < 0 {
			return stackError()
		}
	default:
		return stackError()
	}
	ftype, mtype, err := newTypes(e)
	if err != nil {
		return err
	}
	defer release(ftype, &err)
	defer release(mtype, &err)
	space := newSpace(shape)
	if space < 0 {
		return stackError()
	}
	defer release(space, &err)
	acpl := C.gorl_create_plist(1)
	if acpl < 0 {
		return stackError()
	}
	defer release(acpl, &err)
	a := C.H5Acreate2(o, cname, ftype, space, acpl, pDefault)
	if a < 0 {
		return stackError()
	}
	if n > 0 {
		err = writeValues(data, mtype, func(mem C.hid_t, buf unsafe.Pointer) C.herr_t {
			return C.H5Awrite(a, mem, buf)
		})
	}
	release(a, &err)
	if err != nil && C.H5Adelete(o, cname) < 0 {
		C.H5Eclear2(0)
	}
	return err
}

func (capi) attr(file int64, obj, name string) (data any, shape []int, err error) {
	o, err := openObject(file, obj)
	if err != nil {
		return nil, nil, err
	}
	defer release(o, &err)
	cname, free := cstring(name)
	defer free()
	switch C.H5Aexists(o, cname) {
	case 0:
		return nil, nil, errNotFound
	case 1:
	default:
		return nil, nil, stackError()
	}
	a := C.H5Aopen(o, cname, pDefault)
	if a < 0 {
		return nil, nil, stackError()
	}
	defer release(a, &err)
	ftype := C.H5Aget_type(a)
	if ftype < 0 {
		return nil, nil, stackError()
	}
	defer release(ftype, &err)
	space := C.H5Aget_space(a)
	if space < 0 {
		return nil, nil, stackError()
	}
	defer release(space, &err)
	limit, err := readLimit(file, uint64(C.H5Aget_storage_size(a)), 1)
	if err != nil {
		return nil, nil, err
	}
	return readValues(ftype, space, limit, func(mem C.hid_t, buf unsafe.Pointer) C.herr_t {
		return C.H5Aread(a, mem, buf)
	})
}

func (capi) attrNames(file int64, obj string) (names []string, err error) {
	o, err := openObject(file, obj)
	if err != nil {
		return nil, err
	}
	defer release(o, &err)
	var oi C.H5O_info_t
	if C.H5Oget_info2(o, &oi, C.H5O_INFO_NUM_ATTRS) < 0 {
		return nil, stackError()
	}
	names = []string{}
	for i := C.hsize_t(0); i < oi.num_attrs; i++ {
		name, err := nameByIndex(func(buf *C.char, size C.size_t) C.ssize_t {
			return C.H5Aget_name_by_idx(o, dot, C.H5_INDEX_NAME, C.H5_ITER_INC, i, buf, size, pDefault)
		})
		if err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}
