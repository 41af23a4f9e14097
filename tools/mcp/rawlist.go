package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSchemas keeps each listed tool's inputSchema as the server wrote it.
//
// The positional call form Tool("a", 2) follows the order of a tool's
// properties, but the SDK (v1.8.0) hands a client the schema decoded into
// a map[string]any, its key order lost. The bytes are still on the wire:
// gear reads the JSON-RPC responses as they pass (a wrapped Connection
// for stdio and in-memory transports; a tee on the HTTP body for
// streamable HTTP, whose Connection cannot be wrapped because the SDK
// talks to it through an unexported interface) and keeps, by tool name,
// the raw inputSchema of every tools/list result. Every message passes
// here before the SDK decodes it, so a listing's raw schemas are known
// when the SDK returns the listing.
type rawSchemas struct {
	mu     sync.Mutex
	byName map[string]json.RawMessage
}

// inputSchemaKey is how a message that may be a tools/list result starts
// to look like one: most messages (tool results) never need decoding.
var inputSchemaKey = []byte(`"inputSchema"`)

// observeMessage reads one JSON-RPC message (or batch) off the wire.
func (r *rawSchemas) observeMessage(data []byte) {
	if !bytes.Contains(data, inputSchemaKey) {
		return
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(data, &batch) == nil {
			for _, m := range batch {
				r.observeResult(m.Result)
			}
		}
		return
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &msg) == nil {
		r.observeResult(msg.Result)
	}
}

// observeResult keeps the raw schemas of a tools/list result; any other
// result is ignored.
func (r *rawSchemas) observeResult(result json.RawMessage) {
	if !bytes.Contains(result, inputSchemaKey) {
		return
	}
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &list) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName == nil {
		r.byName = map[string]json.RawMessage{}
	}
	for _, t := range list.Tools {
		var compact bytes.Buffer
		if t.Name != "" && json.Compact(&compact, t.InputSchema) == nil {
			r.byName[t.Name] = compact.Bytes()
		}
	}
}

// schema is tool name's inputSchema as the server wrote it, if the bytes
// seen say the same as decoded (the SDK's map): a later listing the tee
// missed can never give a tool another's order.
func (r *rawSchemas) schema(name string, decoded any) (json.RawMessage, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.Lock()
	raw, ok := r.byName[name]
	r.mu.Unlock()
	if !ok {
		return nil, false
	}
	var again any
	if json.Unmarshal(raw, &again) != nil || !reflect.DeepEqual(again, decoded) {
		return nil, false
	}
	return raw, true
}

// recordingTransport wraps a transport whose Connection the SDK uses only
// through the exported interface (stdio, in-memory).
type recordingTransport struct {
	sdk.Transport
	raw *rawSchemas
}

func (t recordingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return recordingConn{Connection: c, raw: t.raw}, nil
}

type recordingConn struct {
	sdk.Connection
	raw *rawSchemas
}

func (c recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil && resp.Error == nil {
		c.raw.observeResult(resp.Result)
	}
	return msg, err
}

// recordJSONBody tees a plain JSON answer: the SDK reads it whole, and at
// its end the message is read for raw schemas.
type recordJSONBody struct {
	io.ReadCloser
	raw *rawSchemas
	buf bytes.Buffer
}

func (b *recordJSONBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if errors.Is(err, io.EOF) {
		b.raw.observeMessage(b.buf.Bytes())
		b.buf = bytes.Buffer{}
	}
	return n, err
}

// recordSSEBody tees an event stream: each event's data lines, joined,
// are one message, read when the blank line that ends the event passes.
type recordSSEBody struct {
	io.ReadCloser
	raw  *rawSchemas
	line []byte // the partial line so far
	data []byte // the current event's data
	over bool   // the event passed MaxMessageBytes: skipped
}

func (b *recordSSEBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	chunk := p[:n]
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			b.line = append(b.line, chunk...)
			if len(b.line) > MaxMessageBytes {
				b.line, b.over = b.line[:0], true
			}
			break
		}
		b.line = append(b.line, chunk[:i]...)
		chunk = chunk[i+1:]
		b.endLine()
	}
	return n, err
}

func (b *recordSSEBody) endLine() {
	line := bytes.TrimSuffix(b.line, []byte("\r"))
	switch {
	case len(line) == 0:
		if !b.over && len(b.data) > 0 {
			b.raw.observeMessage(b.data)
		}
		b.data, b.over = b.data[:0], false
	case bytes.HasPrefix(line, []byte("data:")):
		v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
		if len(b.data) > 0 {
			b.data = append(b.data, '\n')
		}
		b.data = append(b.data, v...)
		if len(b.data) > MaxMessageBytes {
			b.data, b.over = b.data[:0], true
		}
	}
	b.line = b.line[:0]
}
