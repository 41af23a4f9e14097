package webget

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools/webget/webgettest"
)

const testUA = "gear/test (+https://github.com/gear-chat/gear)"

var openMeteo = Service{Name: "Open-Meteo", URLKey: "tools.weather.geocoding_url", Reason: JSONReason("reason")}

func newClient(srv *webgettest.Server, o Options) *Client {
	o.HTTP = srv.Client()
	o.UserAgent = testUA
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	return New(o)
}

func TestGet(t *testing.T) {
	geocode := webgettest.Fixture(t, "geocoding_search_frederick.json")
	badRequest := webgettest.Fixture(t, "forecast_error_400_invalid_variable.json")
	ok := webgettest.Reply{Body: geocode}
	unavailable := webgettest.Reply{Status: 503, Body: []byte("upstream busy")}
	tests := []struct {
		name     string
		opts     Options
		replies  []webgettest.Reply
		wantKind Kind   // 0: success
		wantMsg  string // in the error
		wantHits int
	}{
		{name: "success", replies: []webgettest.Reply{ok}, wantHits: 1},
		{name: "503 then success", replies: []webgettest.Reply{unavailable, ok}, wantHits: 2},
		{name: "429 then success", replies: []webgettest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "0"}}, ok}, wantHits: 2},
		{name: "503 twice", replies: []webgettest.Reply{unavailable, unavailable}, wantKind: KindStatus,
			wantMsg: "Open-Meteo answered HTTP 503 Service Unavailable (2 attempts); the service is having trouble, try again later", wantHits: 2},
		{name: "400 is not retried", replies: []webgettest.Reply{{Status: 400, Body: badRequest}}, wantKind: KindStatus,
			wantMsg: "Open-Meteo refused the request with HTTP 400 Bad Request: Cannot initialize IconSurfaceVariable from invalid String value winddiren_10m for key hourly; check tools.weather.geocoding_url", wantHits: 1},
		{name: "Retry-After over the cap", opts: Options{MaxRetryAfter: 10 * time.Millisecond},
			replies:  []webgettest.Reply{{Status: 503, Header: map[string]string{"Retry-After": "120"}}},
			wantKind: KindStatus, wantMsg: "asks to wait 2m0s; try again later", wantHits: 1},
		{name: "stalled twice", opts: Options{Timeout: 50 * time.Millisecond},
			replies:  []webgettest.Reply{{Stall: true}, {Stall: true}},
			wantKind: KindTimeout, wantMsg: "Open-Meteo did not answer within 50ms (2 attempts); check the network, or raise tools.timeout", wantHits: 2},
		{name: "stalled then success", opts: Options{Timeout: 50 * time.Millisecond},
			replies: []webgettest.Reply{{Stall: true}, ok}, wantHits: 2},
		{name: "over-size with Content-Length", opts: Options{MaxBytes: 100}, replies: []webgettest.Reply{ok},
			wantKind: KindTooLarge, wantMsg: "Open-Meteo sent more than 100 bytes; check tools.weather.geocoding_url, or raise tools.max_response_bytes", wantHits: 1},
		{name: "over-size chunked", opts: Options{MaxBytes: 100}, replies: []webgettest.Reply{{Body: geocode, Chunked: true}},
			wantKind: KindTooLarge, wantMsg: "sent more than 100 bytes", wantHits: 1},
		{name: "exactly at the cap", opts: Options{MaxBytes: int64(len(geocode))}, replies: []webgettest.Reply{{Body: geocode, Chunked: true}}, wantHits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, webgettest.Route{
				Path:    "/v1/search",
				Query:   map[string]string{"name": "Frederick"},
				Replies: tt.replies,
			})
			c := newClient(srv, tt.opts)
			start := time.Now()
			body, err := c.Get(context.Background(), openMeteo, srv.URL+"/v1/search?name=Frederick")
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("took %v", elapsed)
			}
			if got := srv.Hits("/v1/search"); got != tt.wantHits {
				t.Errorf("server saw %d requests, want %d", got, tt.wantHits)
			}
			if tt.wantKind == 0 {
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				if string(body) != string(geocode) {
					t.Errorf("body differs from the replayed one")
				}
				return
			}
			var werr *Error
			if !errors.As(err, &werr) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if werr.Kind != tt.wantKind {
				t.Errorf("kind %d, want %d (%v)", werr.Kind, tt.wantKind, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q\nwant it to contain %q", err, tt.wantMsg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestGetHonoursRetryAfter(t *testing.T) {
	geocode := webgettest.Fixture(t, "geocoding_search_frederick.json")
	srv := webgettest.NewServer(t, testUA, webgettest.Route{
		Path: "/v1/search",
		Replies: []webgettest.Reply{
			{Status: 503, Header: map[string]string{"Retry-After": "1"}},
			{Body: geocode},
		},
	})
	c := newClient(srv, Options{})
	start := time.Now()
	if _, err := c.Get(context.Background(), openMeteo, srv.URL+"/v1/search"); err != nil {
		t.Fatalf("Get: %v", err)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Errorf("retried after %v; the server asked for 1s", waited)
	}
}

func TestGetUnreachable(t *testing.T) {
	c := New(Options{HTTP: &http.Client{Transport: webgettest.Down("dial tcp: connect: network is unreachable")}, UserAgent: testUA})
	_, err := c.Get(context.Background(), openMeteo, "http://api.example/v1/search")
	want := "Open-Meteo unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather.geocoding_url"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	var werr *Error
	if !errors.As(err, &werr) || werr.Attempts != 1 {
		t.Errorf("an unreachable service is not retried: %+v", werr)
	}
}

func TestGetCancelled(t *testing.T) {
	tests := []struct {
		name  string
		reply webgettest.Reply
	}{
		{"while the server stalls", webgettest.Reply{Stall: true}},
		{"while waiting to retry", webgettest.Reply{Status: 503, Header: map[string]string{"Retry-After": "3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, webgettest.Route{Path: "/v1/search", Replies: []webgettest.Reply{tt.reply}})
			c := newClient(srv, Options{Timeout: 5 * time.Second})
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, err := c.Get(ctx, openMeteo, srv.URL+"/v1/search")
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("cancellation took %v", elapsed)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want one wrapping context.Canceled", err)
			}
			var werr *Error
			if !errors.As(err, &werr) || werr.Kind != KindCanceled {
				t.Errorf("error %v, want KindCanceled", err)
			}
		})
	}
}

func TestGetCallerDeadline(t *testing.T) {
	tests := []struct {
		name  string
		reply webgettest.Reply
	}{
		{"while the server stalls", webgettest.Reply{Stall: true}},
		{"while waiting to retry", webgettest.Reply{Status: 503, Header: map[string]string{"Retry-After": "3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, webgettest.Route{Path: "/v1/search", Replies: []webgettest.Reply{tt.reply}})
			c := newClient(srv, Options{Timeout: 5 * time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := c.Get(ctx, openMeteo, srv.URL+"/v1/search")
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("took %v", elapsed)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v, want one wrapping context.DeadlineExceeded", err)
			}
			want := "Open-Meteo did not answer in the time allowed (context deadline exceeded); try again"
			if err.Error() != want {
				t.Errorf("error %q\nwant %q", err, want)
			}
		})
	}
}

func TestGetJSONMalformed(t *testing.T) {
	// The recorded body cut short, as a dropped connection leaves it.
	geocode := webgettest.Fixture(t, "geocoding_search_frederick.json")
	srv := webgettest.NewServer(t, testUA, webgettest.Route{Path: "/v1/search", Replies: []webgettest.Reply{{Body: geocode[:len(geocode)/2]}}})
	c := newClient(srv, Options{})
	var v struct{ Results []struct{ Name string } }
	err := c.GetJSON(context.Background(), openMeteo, srv.URL+"/v1/search", &v)
	var werr *Error
	if !errors.As(err, &werr) || werr.Kind != KindMalformed {
		t.Fatalf("error %v, want KindMalformed", err)
	}
	want := "Open-Meteo sent an answer gear cannot read (unexpected end of JSON input); check tools.weather.geocoding_url"
	if err.Error() != want {
		t.Errorf("error %q\nwant %q", err, want)
	}
}

func TestGetJSON(t *testing.T) {
	srv := webgettest.NewServer(t, testUA, webgettest.Route{Path: "/v1/search", Replies: []webgettest.Reply{{Body: webgettest.Fixture(t, "geocoding_search_frederick.json")}}})
	c := newClient(srv, Options{})
	var v struct {
		Results []struct {
			Name   string `json:"name"`
			Admin1 string `json:"admin1"`
		} `json:"results"`
	}
	if err := c.GetJSON(context.Background(), openMeteo, srv.URL+"/v1/search", &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Results) != 3 || v.Results[0].Admin1 != "Maryland" {
		t.Errorf("decoded %+v", v)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header string
		want   time.Duration
		ok     bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{"-3", 0, false},
		{"soon", 0, false},
		{"Sun, 26 Jul 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sun, 26 Jul 2026 11:00:00 GMT", 0, true},
		{"99999999999", 24 * time.Hour, true},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.header, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "Wed, 21 Oct 2015 07:28:00 GMT", "-1", "9223372036854775807", ""} {
		f.Add(s)
	}
	now := time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, h string) {
		d, ok := retryAfter(h, now)
		if d < 0 || (!ok && d != 0) {
			t.Errorf("retryAfter(%q) = %v, %v", h, d, ok)
		}
	})
}

func TestClip(t *testing.T) {
	if got := clip("  short  ", 10); got != "short" {
		t.Errorf("clip = %q", got)
	}
	if got := clip("ééééé", 5); got != "éé…" {
		t.Errorf("clip cut inside a rune: %q", got)
	}
}
