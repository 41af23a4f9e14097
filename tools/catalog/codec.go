package catalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// A binary encoding of a library as read, for the cache (cache.go): every
// field of every value, by reflection, so that a field added to tools.Spec
// is kept without anyone remembering to add it. Decoding is compiled once
// per call into a function per type, and every string is a slice of one
// copy of the record: reading 4,076 tools back is a few milliseconds,
// against the tens that JSON and the schemas cost.

var errCorrupt = errors.New("the cached library is corrupt")

// encoder appends values; a nil slice or map is 0, another its length + 1,
// so that nil and empty come back as they were.
type encoder struct {
	b   []byte
	err error
}

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *encoder) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		e.uvarint(uint64(v.Len()))
		e.b = append(e.b, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			e.b = append(e.b, 1)
		} else {
			e.b = append(e.b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = binary.AppendVarint(e.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.uvarint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v.Float()))
	case reflect.Slice:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		e.uvarint(uint64(v.Len()) + 1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.b = append(e.b, v.Bytes()...)
			return
		}
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.b = append(e.b, 0)
			return
		}
		e.b = append(e.b, 1)
		e.value(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				e.err = fmt.Errorf("%s.%s is not exported: it cannot be cached", v.Type(), v.Type().Field(i).Name)
				return
			}
			e.value(v.Field(i))
		}
	case reflect.Map:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		e.uvarint(uint64(v.Len()) + 1)
		// The order of a map's entries does not matter to the decoder.
		it := v.MapRange()
		for it.Next() {
			e.value(it.Key())
			e.value(it.Value())
		}
	default:
		e.err = fmt.Errorf("a %s cannot be cached", v.Type())
	}
}

// decoder reads encoder's layout from b; strings are slices of s, which
// holds the same bytes.
type decoder struct {
	b   []byte
	s   string
	at  int
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b[d.at:])
	if n <= 0 {
		d.fail()
		d.at = len(d.b)
		return 0
	}
	d.at += n
	return v
}

// count reads a length that must fit in what is left (every element takes
// a byte at least): a damaged record cannot ask for a huge allocation.
func (d *decoder) count() (n int, isNil bool) {
	v := d.uvarint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)-d.at) {
		d.fail()
		return 0, true
	}
	return int(v - 1), false
}

func (d *decoder) str() string {
	v := d.uvarint()
	if v > uint64(len(d.b)-d.at) {
		d.fail()
		return ""
	}
	s := d.s[d.at : d.at+int(v)]
	d.at += int(v)
	return s
}

type decodeFunc func(d *decoder, v reflect.Value)

// compile returns the decoder of type t, building those of its parts once
// (memo; a type that contains itself is not supported, and none does).
func compile(t reflect.Type, memo map[reflect.Type]decodeFunc) decodeFunc {
	if f, ok := memo[t]; ok {
		return f
	}
	var f decodeFunc
	switch t.Kind() {
	case reflect.String:
		f = func(d *decoder, v reflect.Value) { v.SetString(d.str()) }
	case reflect.Bool:
		f = func(d *decoder, v reflect.Value) {
			if d.at >= len(d.b) || d.b[d.at] > 1 {
				d.fail()
				return
			}
			v.SetBool(d.b[d.at] == 1)
			d.at++
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f = func(d *decoder, v reflect.Value) {
			x, n := binary.Varint(d.b[d.at:])
			if n <= 0 || v.OverflowInt(x) {
				d.fail()
				d.at = len(d.b)
				return
			}
			d.at += n
			v.SetInt(x)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f = func(d *decoder, v reflect.Value) {
			x := d.uvarint()
			if v.OverflowUint(x) {
				d.fail()
				return
			}
			v.SetUint(x)
		}
	case reflect.Float32, reflect.Float64:
		f = func(d *decoder, v reflect.Value) {
			if len(d.b)-d.at < 8 {
				d.fail()
				d.at = len(d.b)
				return
			}
			v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.at:])))
			d.at += 8
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			f = func(d *decoder, v reflect.Value) {
				n, isNil := d.count()
				if isNil {
					return
				}
				v.SetBytes(d.b[d.at : d.at+n : d.at+n])
				d.at += n
			}
			break
		}
		elem := t.Elem()
		var fe decodeFunc
		f = func(d *decoder, v reflect.Value) {
			n, isNil := d.count()
			if isNil {
				return
			}
			s := reflect.MakeSlice(t, n, n)
			for i := 0; i < n && d.err == nil; i++ {
				fe(d, s.Index(i))
			}
			v.Set(s)
		}
		memo[t] = f
		fe = compile(elem, memo)
		return f
	case reflect.Pointer:
		var fe decodeFunc
		f = func(d *decoder, v reflect.Value) {
			if d.at >= len(d.b) || d.b[d.at] > 1 {
				d.fail()
				return
			}
			d.at++
			if d.b[d.at-1] == 0 {
				return
			}
			p := reflect.New(t.Elem())
			fe(d, p.Elem())
			v.Set(p)
		}
		memo[t] = f
		fe = compile(t.Elem(), memo)
		return f
	case reflect.Struct:
		fields := make([]decodeFunc, t.NumField())
		f = func(d *decoder, v reflect.Value) {
			for i, fd := range fields {
				if d.err != nil {
					return
				}
				fd(d, v.Field(i))
			}
		}
		memo[t] = f
		for i := range fields {
			fields[i] = compile(t.Field(i).Type, memo)
		}
		return f
	case reflect.Map:
		var fk, fv decodeFunc
		f = func(d *decoder, v reflect.Value) {
			n, isNil := d.count()
			if isNil {
				return
			}
			m := reflect.MakeMapWithSize(t, n)
			for range n {
				k, x := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
				fk(d, k)
				fv(d, x)
				if d.err != nil {
					return
				}
				m.SetMapIndex(k, x)
			}
			v.Set(m)
		}
		memo[t] = f
		fk, fv = compile(t.Key(), memo), compile(t.Elem(), memo)
		return f
	default:
		f = func(d *decoder, _ reflect.Value) { d.fail() }
	}
	memo[t] = f
	return f
}
