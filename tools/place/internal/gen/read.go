package main

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

func (g *gen) readCountries(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	g.byCode = map[string]*country{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 16 {
			return fmt.Errorf("%s: short line %q", path, line)
		}
		pop, _ := strconv.ParseInt(fs[7], 10, 64)
		g.countries = append(g.countries, country{
			code: fs[0], iso3: fs[1], name: fs[4], capital: fs[5], population: pop,
			englishFirst: strings.HasPrefix(fs[15], "en"),
		})
	}
	for i := range g.countries {
		g.byCode[g.countries[i].code] = &g.countries[i]
	}
	return sc.Err()
}

func (g *gen) readCities(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.Name != "cities15000.txt" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		sc := bufio.NewScanner(rc)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), "\t")
			if len(fs) < 19 {
				return fmt.Errorf("%s: short line %q", path, sc.Text())
			}
			lat, err1 := strconv.ParseFloat(fs[4], 64)
			lon, err2 := strconv.ParseFloat(fs[5], 64)
			pop, err3 := strconv.ParseInt(fs[14], 10, 64)
			if err1 != nil || err2 != nil || err3 != nil || fs[17] == "" {
				return fmt.Errorf("%s: bad line %q", path, sc.Text())
			}
			g.cities = append(g.cities, city{
				name: fs[1], ascii: fs[2], alts: filterAlternates(fs[1], fs[2], fs[3]),
				cc: fs[8], admin1: fs[10], lat: lat, lon: lon, pop: pop, zone: fs[17],
			})
		}
		return sc.Err()
	}
	return fmt.Errorf("%s: no cities15000.txt inside", path)
}

// filterAlternates keeps the alternate names an English speaker might
// write: Latin script, capitalised, no digits, not an all-capital code (airport codes
// such as HNL), 3 to 40 bytes, at most four words, and not the same key as
// the name itself. GeoNames' alternate names carry no language tag in this
// file, so script is the test that is available.
func filterAlternates(name, ascii, list string) []string {
	if list == "" {
		return nil
	}
	seen := map[string]bool{norm.Key(name): true, norm.Key(ascii): true}
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if len(a) < 3 || len(a) > 40 || !latinName(a) {
			continue
		}
		k := norm.Key(a)
		if k == "" || seen[k] || strings.Count(k, " ") > 3 {
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	return out
}

func latinName(s string) bool {
	upper, letters := 0, 0
	for i, r := range s {
		if i == 0 && !unicode.IsUpper(r) {
			// Lower-case alternates in this file are romanisations of
			// other scripts (bei jing, mywnkh), not spellings in use.
			return false
		}
		switch {
		case unicode.IsLetter(r):
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		case r == ' ' || r == '-' || r == '\'' || r == '.' || r == '’' || r == ',':
		case unicode.Is(unicode.Mn, r):
		default:
			return false
		}
	}
	return letters >= 3 && upper < letters
}

func (g *gen) readZones(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	g.zoneIndex = map[string]int{}
	g.zoneData = map[string][]byte{}
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() || zf.Name == "Factory" || zf.Name == "posixrules" || zf.Name == "localtime" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if _, err := time.LoadLocationFromTZData(zf.Name, data); err != nil {
			return fmt.Errorf("zone %s: %w", zf.Name, err)
		}
		sum := sha256.Sum256(data)
		g.zoneIndex[zf.Name] = len(g.zones)
		g.zones = append(g.zones, zone{id: zf.Name, group: fmt.Sprintf("%x", sum[:8])})
		g.zoneData[zf.Name] = data
	}
	sort.Slice(g.zones, func(i, j int) bool { return g.zones[i].id < g.zones[j].id })
	for i, z := range g.zones {
		g.zoneIndex[z.id] = i
	}
	for _, c := range g.cities {
		if _, ok := g.zoneIndex[c.zone]; !ok {
			return fmt.Errorf("city %s: zone %s is not in %s", c.name, c.zone, path)
		}
	}
	return nil
}

func (g *gen) readWords(path string, maxRank int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var entries []struct {
		Word  string `json:"word"`
		Count int64  `json:"count"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	g.words = map[string]int{}
	g.anyWords = map[string]bool{}
	for i, e := range entries {
		if i >= maxRank {
			break
		}
		g.anyWords[strings.ToLower(e.Word)] = true
		// The list spells a word with a capital when it is more often
		// capitalised: those are names (Paris), not common words.
		if e.Word == strings.ToLower(e.Word) {
			if _, dup := g.words[e.Word]; !dup {
				g.words[e.Word] = i + 1
			}
		}
	}
	return nil
}

// readDict reads a spelling dictionary, one word a line, names
// capitalised: a word listed in lower case is a common word.
func (g *gen) readDict(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	g.commonNouns = map[string]bool{}
	for _, w := range strings.Split(string(data), "\n") {
		if w != "" && w == strings.ToLower(w) {
			g.commonNouns[w] = true
		}
	}
	return nil
}

func (g *gen) checkRegions() error {
	for _, a := range regionAnchors {
		found := false
		for _, c := range g.cities {
			if c.name == a.city && c.cc == a.cc {
				if c.admin1 == a.admin1 {
					found = true
					break
				}
			}
		}
		if !found {
			return fmt.Errorf("region table: %s, %s is not in admin1 %s", a.city, a.cc, a.admin1)
		}
	}
	return nil
}
