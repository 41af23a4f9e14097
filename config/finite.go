package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// checkFinite refuses NaN and ±Inf in every number of v (a struct), named
// by its YAML path: such a value passes every range check written as
// "x < lo || x > hi" and fails later, far from its cause.
func checkFinite(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkFinite(v.Elem(), path)
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("config: %s is %v; want a finite number", path, f)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			if path != "" {
				name = path + "." + name
			}
			if err := checkFinite(v.Field(i), name); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := checkFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if err := checkFinite(iter.Value(), fmt.Sprintf("%s.%v", path, iter.Key())); err != nil {
				return err
			}
		}
	}
	return nil
}
