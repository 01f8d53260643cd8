package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// settingError rewrites an error of decoding settings in the words of the
// settings: the dotted path of the setting (prefix, "" or "algorithm",
// then the keys) and the kind of value it wants, instead of Go's field and
// type names. doc is the JSON that was decoded and known the JSON of its
// defaults (every setting there is, for finding an unknown one). Errors of
// other kinds are returned without json's prefix.
func settingError(prefix string, doc, known []byte, err error) error {
	var root, def any
	json.Unmarshal(doc, &root)
	json.Unmarshal(known, &def)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path, val := settingPath(root, strings.Split(te.Field, "."))
		want := valueWords(te.Type)
		if _, list := val.([]any); list && te.Type.Kind() != reflect.Slice && te.Type.Kind() != reflect.Array {
			want = "a list of " + plural(want)
		}
		return fmt.Errorf("%s: want %s, got %s", joinPath(prefix, path), want, describeValue(val))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		if paths := unknownSettings(root, def, nil); len(paths) > 0 {
			var names []string
			for _, p := range paths {
				names = append(names, joinPath(prefix, p))
			}
			if len(names) > 3 {
				names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
			}
			return fmt.Errorf("unknown setting %s", strings.Join(names, ", "))
		}
	}
	if prefix != "" {
		return fmt.Errorf("%s: %s", prefix, msg)
	}
	return errors.New(msg)
}

func joinPath(prefix string, path []string) string {
	if prefix != "" {
		path = append([]string{prefix}, path...)
	}
	return strings.Join(path, ".")
}

// settingPath follows the keys of a json.UnmarshalTypeError's Field
// through the document root, skipping the names of embedded Go structs
// (keys the document does not have), and returns the keys it found and
// the value at the end.
func settingPath(root any, field []string) ([]string, any) {
	var path []string
	cur := root
	for _, k := range field {
		m, ok := cur.(map[string]any)
		if !ok {
			break
		}
		v, ok := m[k]
		if !ok {
			continue // an embedded struct's Go name
		}
		path, cur = append(path, k), v
	}
	return path, cur
}

// valueWords names the JSON values a Go type accepts.
func valueWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list of " + plural(valueWords(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value of another kind"
}

// plural turns the words of valueWords into those of several values.
func plural(w string) string {
	if w == "true or false" {
		return "true or false values"
	}
	return strings.TrimPrefix(strings.TrimPrefix(w, "an "), "a ") + "s"
}

// describeValue writes a decoded JSON value for a message.
func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case map[string]any:
		return "an object"
	}
	b, err := json.Marshal(v)
	if err != nil || len(b) > 60 {
		return fmt.Sprintf("a %T", v)
	}
	return string(b)
}

// unknownSettings returns the paths of the keys of doc that known lacks,
// sorted (none inside a section known leaves null: an optional section's
// keys are checked when it is decoded).
func unknownSettings(doc, known any, path []string) [][]string {
	d, ok := doc.(map[string]any)
	k, kok := known.(map[string]any)
	if !ok || !kok {
		return nil
	}
	var out [][]string
	for _, key := range slices.Sorted(maps.Keys(d)) {
		p := append(slices.Clone(path), key)
		kv, has := k[key]
		if !has {
			out = append(out, p)
			continue
		}
		out = append(out, unknownSettings(d[key], kv, p)...)
	}
	return out
}

// otherAlgorithm returns the name of a registered algorithm other than
// algoName whose settings for envID include every unknown setting of the
// algorithm section section, or "" if none does: the section was most
// likely written for that algorithm.
func otherAlgorithm(algoName, envID string, section []byte) string {
	var doc any
	if json.Unmarshal(section, &doc) != nil {
		return ""
	}
	a, err := lookupAlgorithm(algoName)
	if err != nil {
		return ""
	}
	own, _ := a.defaults(envID)
	ownJSON, err := json.Marshal(own)
	if err != nil {
		return ""
	}
	var ownDoc any
	json.Unmarshal(ownJSON, &ownDoc)
	unknown := unknownSettings(doc, ownDoc, nil)
	if len(unknown) == 0 {
		return ""
	}
	for _, name := range algorithmNames() {
		if name == algoName {
			continue
		}
		acfg, _ := algorithms[name].defaults(envID)
		b, err := json.Marshal(acfg)
		if err != nil {
			continue
		}
		var other any
		json.Unmarshal(b, &other)
		if coversAll(other, unknown) {
			return name
		}
	}
	return ""
}

// coversAll reports whether every path names a key of doc.
func coversAll(doc any, paths [][]string) bool {
	for _, p := range paths {
		cur := doc
		for _, k := range p {
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if cur, ok = m[k]; !ok {
				return false
			}
		}
	}
	return true
}

// algorithmError is settingError for the algorithm section of algoName's
// settings; for unknown settings that another algorithm has, it says that
// the section was written for that one.
func algorithmError(algoName, envID string, section, known []byte, err error) error {
	serr := settingError("algorithm", section, known, err)
	if other := otherAlgorithm(algoName, envID, section); other != "" {
		return fmt.Errorf("%w: these are settings of %s, but the run's algo is %s (a configuration written for %s? set algo to %q or remove them)",
			serr, other, algoName, other, other)
	}
	return fmt.Errorf("%s settings: %w", algoName, serr)
}
