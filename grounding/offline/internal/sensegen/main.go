// Command sensegen derives a table of word senses from WordNet 3.0 for
// the experiment of grounding/offline/wordsenses_test.go (word senses as a
// query expansion of the library index; measured and left out of the
// engine: BENCHMARKS.md, "Ranking with word senses"). Run it through
// scripts/wordsenses, which installs Debian's wordnet-base when it is
// missing.
//
// Source: Princeton WordNet 3.0 as Debian's package wordnet-base ships it
// (/usr/share/wordnet: index.*, data.*, cntlist.rev). WordNet 3.0
// Copyright 2006 by Princeton University; its licence permits use, copy,
// modification and distribution with the copyright notice kept
// (docs/credits.md).
//
// What it writes: for each single English word of WordNet with at least
// one sense tagged in the semantic concordance (cntlist.rev), the words
// close to it in its frequent senses — the other words of the same synset,
// and its derivationally related forms, pertainyms and participles
// ("forecast" → "prognosis", "predict"; "translate" → "translation",
// "interpret") — and, with -broader, a noun's direct hypernym's words
// ("sedan" → "car"), as two lists. A sense is frequent when its tag count
// is at least -min-share of the word's most frequent sense's. Nothing is
// added by hand, and nothing is about any tool or library: it is general
// English. With -broader the table is about 280 KB gzipped, 14,000 words.
//
// The file is gzipped text, one word a line, sorted, after a comment line:
//
//	word<TAB>close words (space-separated)<TAB>broader words
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type synset struct {
	words   []string // lower-cased, as written in the synset
	lexID   []int
	lexFile int
	ptrs    []pointer
}

type pointer struct {
	sym      string
	offset   string
	pos      byte
	src, dst int // 0: the whole synset
}

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database directory (Debian: wordnet-base)")
	out := flag.String("out", "wordnet-senses.txt.gz", "output file")
	minShare := flag.Float64("min-share", 0.2, "a sense is kept when its tag count is at least this share of the word's most frequent sense's")
	untagged := flag.Bool("untagged", false, "keep words no sense of which is tagged (their first sense, when they have at most two)")
	broader := flag.Bool("broader", false, "write nouns' direct hypernyms")
	flag.Parse()
	if err := run(*dir, *out, *minShare, *untagged, *broader); err != nil {
		fmt.Fprintln(os.Stderr, "sensegen:", err)
		os.Exit(1)
	}
}

func run(dir, out string, minShare float64, untagged, broader bool) error {
	posNames := map[byte]string{'n': "noun", 'v': "verb", 'a': "adj", 'r': "adv"}
	data := map[byte]map[string]*synset{}
	for pos, name := range posNames {
		m, err := readData(filepath.Join(dir, "data."+name))
		if err != nil {
			return fmt.Errorf("%w (install Debian's wordnet-base: scripts/wordsenses)", err)
		}
		data[pos] = m
	}
	counts, err := readCounts(filepath.Join(dir, "cntlist.rev"))
	if err != nil {
		return err
	}
	near := map[string]map[string]bool{}
	broad := map[string]map[string]bool{}
	add := func(m map[string]map[string]bool, w, r string) {
		if r == w || !plainWord(r) {
			return
		}
		if m[w] == nil {
			m[w] = map[string]bool{}
		}
		m[w][r] = true
	}
	for pos, name := range posNames {
		f, err := os.Open(filepath.Join(dir, "index."+name))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, " ") {
				continue // the licence
			}
			fs := strings.Fields(line)
			if len(fs) < 6 || !plainWord(fs[0]) {
				continue
			}
			lemma := fs[0]
			nSyn, _ := strconv.Atoi(fs[2])
			offsets := fs[len(fs)-nSyn:]
			// Each sense's tag count, from the synset's lex_filenum and
			// the word's lex_id there.
			tagged := make([]int, len(offsets))
			total := 0
			for i, off := range offsets {
				ss := data[pos][off]
				if ss == nil {
					continue
				}
				for j, w := range ss.words {
					if w == lemma {
						tagged[i] = counts[senseKey(lemma, pos, ss.lexFile, ss.lexID[j])]
					}
				}
				total += tagged[i]
			}
			var keep []int
			switch {
			case total == 0 && untagged && len(offsets) <= 2:
				keep = []int{0}
			case total == 0:
			default:
				top := 0
				for _, c := range tagged {
					top = max(top, c)
				}
				for i, c := range tagged {
					if c > 0 && float64(c) >= minShare*float64(top) {
						keep = append(keep, i)
					}
				}
			}
			for _, i := range keep {
				ss := data[pos][offsets[i]]
				if ss == nil {
					continue
				}
				at := 0
				for j, w := range ss.words {
					add(near, lemma, w)
					if w == lemma {
						at = j + 1
					}
				}
				for _, p := range ss.ptrs {
					target := data[p.pos][p.offset]
					if target == nil {
						continue
					}
					switch p.sym {
					case "+", "\\", "<": // derivation, pertainym, participle: lexical
						if p.src == at && p.dst > 0 && p.dst <= len(target.words) {
							add(near, lemma, target.words[p.dst-1])
						}
					case "@", "@i":
						if broader && pos == 'n' && p.src == 0 {
							for _, w := range target.words {
								add(broad, lemma, w)
							}
						}
					}
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	words := map[string]bool{}
	for w := range near {
		words[w] = true
	}
	for w := range broad {
		words[w] = true
	}
	sorted := make([]string, 0, len(words))
	for w := range words {
		sorted = append(sorted, w)
	}
	sort.Strings(sorted)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	fmt.Fprintln(bw, "# Derived from Princeton WordNet 3.0 by grounding/offline/internal/sensegen; WordNet 3.0 Copyright 2006 by Princeton University, all rights reserved; licence in docs/credits.md.")
	for _, w := range sorted {
		fmt.Fprintf(bw, "%s\t%s\t%s\n", w, strings.Join(keys(near[w]), " "), strings.Join(keys(broad[w]), " "))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// plainWord is a single lower-case word of letters (no collocation, no
// number, no abbreviation with dots).
func plainWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// senseKey is cntlist.rev's key without its adjective-satellite head:
// lemma%ss_type:lex_filenum:lex_id.
func senseKey(lemma string, pos byte, lexFile, lexID int) string {
	t := map[byte]int{'n': 1, 'v': 2, 'a': 3, 'r': 4}[pos]
	return fmt.Sprintf("%s%%%d:%02d:%02d", lemma, t, lexFile, lexID)
}

// readCounts reads cntlist.rev ("sense_key sense_number tag_cnt"),
// folding adjective satellites (type 5) into adjectives (3) and dropping
// the head word.
func readCounts(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		key := fs[0]
		pct := strings.IndexByte(key, '%')
		if pct < 0 {
			continue
		}
		parts := strings.Split(key[pct+1:], ":")
		if len(parts) < 3 {
			continue
		}
		if parts[0] == "5" {
			parts[0] = "3"
		}
		n, _ := strconv.Atoi(fs[2])
		m[strings.ToLower(key[:pct])+"%"+strings.Join(parts[:3], ":")] += n
	}
	return m, sc.Err()
}

// readData reads a data.* file: each synset's words, lex ids and
// pointers.
func readData(path string) (map[string]*synset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]*synset{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue
		}
		if bar := strings.Index(line, " | "); bar >= 0 {
			line = line[:bar]
		}
		fs := strings.Fields(line)
		if len(fs) < 4 {
			continue
		}
		ss := &synset{}
		ss.lexFile, _ = strconv.Atoi(fs[1])
		wc, _ := strconv.ParseInt(fs[3], 16, 32)
		i := 4
		for k := 0; k < int(wc) && i+1 < len(fs); k++ {
			w := strings.ToLower(fs[i])
			if p := strings.IndexByte(w, '('); p > 0 { // adjective marker "(a)"
				w = w[:p]
			}
			id, _ := strconv.ParseInt(fs[i+1], 16, 32)
			ss.words = append(ss.words, w)
			ss.lexID = append(ss.lexID, int(id))
			i += 2
		}
		if i >= len(fs) {
			m[fs[0]] = ss
			continue
		}
		pc, _ := strconv.Atoi(fs[i])
		i++
		for k := 0; k < pc && i+3 < len(fs); k++ {
			st, _ := strconv.ParseInt(fs[i+3], 16, 32)
			ss.ptrs = append(ss.ptrs, pointer{sym: fs[i], offset: fs[i+1], pos: posOf(fs[i+2]), src: int(st >> 8), dst: int(st & 0xff)})
			i += 4
		}
		m[fs[0]] = ss
	}
	return m, sc.Err()
}

func posOf(s string) byte {
	if s == "s" {
		return 'a'
	}
	return s[0]
}
