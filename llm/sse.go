package llm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Limits on a streamed response, applied in the transport before go-openai
// reads a byte: its reader keeps a whole line in memory however long it is,
// and collects every line that is not data (comments included) for an error
// it may never have to report.
const (
	// defaultMaxStreamLine is the longest SSE line passed on. A chunk is
	// a few hundred bytes; servers that send a whole answer as one event
	// stay far below it.
	defaultMaxStreamLine = 1 << 20
	// maxStreamOther is how much text that is neither data, a comment nor
	// an SSE field is passed on: enough for a JSON error body sent without
	// the "data:" prefix.
	maxStreamOther = 64 << 10
)

// streamLimitError is a streamed response that broke one of the limits.
type streamLimitError struct{ what string }

func (e *streamLimitError) Error() string { return e.what }

// sseBody passes a streamed body on line by line within limits: data lines
// up to maxLine bytes, the whole response up to maxTotal bytes. Comments and
// the SSE fields gear does not use (event, id, retry) are dropped as they
// arrive, without being kept, so a server cannot fill memory with them.
type sseBody struct {
	rc       io.ReadCloser
	br       *bufio.Reader
	maxLine  int
	maxTotal int64

	line    []byte
	pending []byte
	total   int64
	other   int
	err     error
}

func newSSEBody(rc io.ReadCloser, maxLine int, maxTotal int64) *sseBody {
	return &sseBody{rc: rc, br: bufio.NewReaderSize(rc, 32<<10), maxLine: maxLine, maxTotal: maxTotal}
}

func (b *sseBody) Read(p []byte) (int, error) {
	for len(b.pending) == 0 && b.err == nil {
		b.next()
	}
	if len(b.pending) > 0 {
		n := copy(p, b.pending)
		b.pending = b.pending[n:]
		return n, nil
	}
	return 0, b.err
}

func (b *sseBody) Close() error { return b.rc.Close() }

// next reads one line and decides what of it to pass on.
func (b *sseBody) next() {
	b.line = b.line[:0]
	comment, first := false, true
	for {
		frag, err := b.br.ReadSlice('\n')
		b.total += int64(len(frag))
		if b.total > b.maxTotal {
			b.err = &streamLimitError{fmt.Sprintf("the streamed response is longer than %s; gear stopped reading it", sizeText(b.maxTotal))}
			return
		}
		if first && len(frag) > 0 {
			comment, first = frag[0] == ':', false
		}
		if !comment {
			if len(b.line)+len(frag) > b.maxLine {
				b.err = &streamLimitError{fmt.Sprintf("a streamed line is longer than %s; gear stopped reading the response", sizeText(int64(b.maxLine)))}
				return
			}
			b.line = append(b.line, frag...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if !comment && len(b.line) > 0 {
				b.pending = b.line
			}
			b.err = err
			return
		}
		break
	}
	if comment {
		return
	}
	trimmed := bytes.TrimLeft(b.line, " \t")
	switch {
	case bytes.HasPrefix(trimmed, []byte("data:")), len(bytes.TrimSpace(trimmed)) == 0:
	case bytes.HasPrefix(trimmed, []byte("event:")), bytes.HasPrefix(trimmed, []byte("id:")), bytes.HasPrefix(trimmed, []byte("retry:")):
		return
	default:
		b.other += len(b.line)
		if b.other > maxStreamOther {
			b.err = &streamLimitError{fmt.Sprintf("the stream holds more than %s that is not data; gear stopped reading it", sizeText(maxStreamOther))}
			return
		}
	}
	b.pending = b.line
}

// sizeText writes a byte count in KiB, MiB or GiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
