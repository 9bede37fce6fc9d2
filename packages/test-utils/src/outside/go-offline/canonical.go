// The RFC 8785 JSON Canonicalization Scheme, from the RFC: object members sorted by the UTF-16
// code units of their names, strings escaped as ECMAScript's JSON.stringify does (only '"', '\\'
// and controls), numbers as ECMAScript writes them. An event's leaf data is this form of it.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// canonical is the RFC 8785 form of one JSON value, and its "seq" member when it is an object.
func canonical(text []byte) ([]byte, int64, error) {
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber()
	var value interface{}
	if err := decoder.Decode(&value); err != nil {
		return nil, 0, err
	}
	var out bytes.Buffer
	if err := write(&out, value); err != nil {
		return nil, 0, err
	}
	var seq int64
	if object, ok := value.(map[string]interface{}); ok {
		if n, ok := object["seq"].(json.Number); ok {
			seq, _ = n.Int64()
		}
	}
	return out.Bytes(), seq, nil
}

func utf16Less(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

func writeString(out *bytes.Buffer, s string) {
	out.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			out.WriteString(`\"`)
		case '\\':
			out.WriteString(`\\`)
		case '\b':
			out.WriteString(`\b`)
		case '\f':
			out.WriteString(`\f`)
		case '\n':
			out.WriteString(`\n`)
		case '\r':
			out.WriteString(`\r`)
		case '\t':
			out.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(out, `\u%04x`, r)
			} else {
				out.WriteRune(r)
			}
		}
	}
	out.WriteByte('"')
}

// writeNumber writes a number as ECMAScript's Number.prototype.toString does.
func writeNumber(out *bytes.Buffer, n json.Number) error {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return errors.New("a number JSON cannot hold")
	}
	if f == 0 {
		out.WriteString("0")
		return nil
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		out.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		return nil
	}
	// Exponent form: the shortest digits, "e+" or "e-" and the exponent without leading zeros.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mantissa, exponent, _ := strings.Cut(s, "e")
	sign, digits := exponent[:1], strings.TrimLeft(exponent[1:], "0")
	out.WriteString(mantissa + "e" + sign + digits)
	return nil
}

func write(out *bytes.Buffer, value interface{}) error {
	switch v := value.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case string:
		writeString(out, v)
	case json.Number:
		return writeNumber(out, v)
	case []interface{}:
		out.WriteByte('[')
		for i, item := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := write(out, item); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case map[string]interface{}:
		keys := make([]string, 0, len(v))
		for key := range v {
			keys = append(keys, key)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		out.WriteByte('{')
		for i, key := range keys {
			if i > 0 {
				out.WriteByte(',')
			}
			writeString(out, key)
			out.WriteByte(':')
			if err := write(out, v[key]); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", value)
	}
	return nil
}
