//go:build hdf5 && cgo

package hdf5_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/internal/hdf5"
)

// tempFile returns a path in a new temporary directory and the function that
// removes it.
func tempFile(name string) (string, func()) {
	dir, err := os.MkdirTemp("", "hdf5example")
	if err != nil {
		log.Fatal(err)
	}
	return filepath.Join(dir, name), func() { os.RemoveAll(dir) }
}

// Example writes a replay buffer the way Tianshou's save_hdf5 lays it out:
// one group per Batch key, one dataset per array, metadata as attributes.
func Example() {
	path, cleanup := tempFile("buf.h5")
	defer cleanup()

	f, err := hdf5.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	root := f.Root()
	if err := root.SetAttr("maxsize", int64(20)); err != nil {
		log.Fatal(err)
	}
	obs, err := root.CreateGroup("obs")
	if err != nil {
		log.Fatal(err)
	}
	if err := obs.SetAttr("__data_type__", "Batch"); err != nil {
		log.Fatal(err)
	}
	pos, err := obs.WriteDataset("pos", []float32{0, 1, 2, 3, 4, 5}, []int{3, 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := pos.SetAttr("__data_type__", "ndarray"); err != nil {
		log.Fatal(err)
	}
	if _, err := root.WriteDataset("terminated", []bool{false, false, true}, []int{3}); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	f, err = hdf5.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	maxsize, err := f.Root().Attr("maxsize")
	if err != nil {
		log.Fatal(err)
	}
	obs, err = f.Root().OpenGroup("obs")
	if err != nil {
		log.Fatal(err)
	}
	data, shape, err := obs.ReadDataset("pos")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("maxsize:", maxsize)
	fmt.Printf("obs/pos: %v %T %v\n", shape, data, data)
	// Output:
	// maxsize: 20
	// obs/pos: [3 2] []float32 [0 1 2 3 4 5]
}

func ExampleGroup_Members() {
	path, cleanup := tempFile("members.h5")
	defer cleanup()
	f, err := hdf5.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	root := f.Root()
	if _, err := root.WriteDataset("rew", []float64{1, 0.5}, []int{2}); err != nil {
		log.Fatal(err)
	}
	if _, err := root.CreateGroup("info"); err != nil {
		log.Fatal(err)
	}
	if _, err := root.WriteDataset("act", []int64{3}, nil); err != nil {
		log.Fatal(err)
	}
	members, err := root.Members()
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range members {
		fmt.Println(m.Name, m.Kind)
	}
	// Output:
	// act dataset
	// info group
	// rew dataset
}

func ExampleGroup_ReadDataset() {
	path, cleanup := tempFile("scalar.h5")
	defer cleanup()
	f, err := hdf5.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	// A 0-d scalar: one element, empty shape.
	if _, err := f.Root().WriteDataset("done", []string{"yes"}, nil); err != nil {
		log.Fatal(err)
	}
	data, shape, err := f.Root().ReadDataset("done")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %v\n", data, shape)
	_, _, err = f.Root().ReadDataset("missing")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// ["yes"] []
	// true
}

func ExampleDataset_Attr() {
	path, cleanup := tempFile("attr.h5")
	defer cleanup()
	f, err := hdf5.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	ds, err := f.Root().WriteDataset("obs", []uint8{1, 2}, []int{2})
	if err != nil {
		log.Fatal(err)
	}
	if err := ds.SetAttr("keys", []string{"a", "b"}); err != nil {
		log.Fatal(err)
	}
	if err := ds.SetAttr("gamma", 0.99); err != nil {
		log.Fatal(err)
	}
	names, err := ds.AttrNames()
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range names {
		v, err := ds.Attr(n)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %T %v\n", n, v, v)
	}
	// Output:
	// gamma: float64 0.99
	// keys: []string [a b]
}

func ExampleError() {
	path, cleanup := tempFile("err.h5")
	defer cleanup()
	f, err := hdf5.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	_, err = f.Root().WriteDataset("obj", []any{"a", 1}, []int{2})
	var e *hdf5.Error
	if errors.As(err, &e) {
		fmt.Println(e.Op, e.Object, errors.Is(err, hdf5.ErrDatatype))
		fmt.Println(e.Err)
	}
	// Output:
	// write dataset /obj true
	// unsupported datatype: Go type []interface {}
}
