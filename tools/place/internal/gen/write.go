package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"log"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

func (g *gen) write(path string) error {
	var raw bytes.Buffer
	w := bufio.NewWriter(&raw)
	ncands, firstWords := 0, map[string]bool{}
	for k, c := range g.candidates {
		ncands += len(c)
		if sp := strings.IndexByte(k, ' '); sp > 0 {
			firstWords[k[:sp]] = true
		}
	}
	fmt.Fprintf(w, "H\t%d\t%d\t%d\t%d\n", len(g.zones)+len(g.places), len(g.candidates), ncands, len(firstWords))
	for zi, z := range g.zones {
		zp := g.zonePlace[zi]
		fmt.Fprintf(w, "Z\t%s\t%d\t%d\t%s\n", z.id, deg(zp.lat), deg(zp.lon), zp.cc)
	}
	for _, co := range g.countries {
		fmt.Fprintf(w, "C\t%s\t%s\t%s\n", co.code, co.iso3, co.name)
	}
	for _, p := range g.places {
		fmt.Fprintf(w, "P\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", p.kind[:2], p.name, p.cc, p.region,
			deg(p.lat), deg(p.lon), p.pop, g.zoneIndex[p.zone])
	}
	keys := make([]string, 0, len(g.candidates))
	for k := range g.candidates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var idx []string
		for _, c := range g.candidates[k] {
			i := c.idx
			if i < 0 {
				i = -i - 1
			} else {
				i += len(g.zones)
			}
			idx = append(idx, strconv.Itoa(i))
		}
		fmt.Fprintf(w, "K\t%s\t%s\t%s\n", k, g.keyFlags[k], strings.Join(idx, ","))
	}
	for _, a := range g.abbrevs {
		fmt.Fprintln(w, a)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	log.Printf("gen: %d zones, %d places, %d keys, %d abbreviations; %d bytes raw, %d gzip'd",
		len(g.zones), len(g.places), len(keys), len(g.abbrevs), raw.Len(), gz.Len())
	return os.WriteFile(path, gz.Bytes(), 0o644)
}

func deg(f float64) int64 { return int64(math.Round(f * 1e4)) }
