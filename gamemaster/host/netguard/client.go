package netguard

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Defaults of ClientOptions.
const (
	DefaultConnectTimeout  = 5 * time.Second
	DefaultMaxResponseSize = 1 << 20
	DefaultMaxRedirects    = 3
)

// maxHeaderBytes bounds a response's header.
const maxHeaderBytes = 64 << 10

// ClientOptions bound what a client built by Policy.Client may spend on a
// request. The zero value gives the defaults, and requires every request
// to carry a context with a deadline.
type ClientOptions struct {
	// Timeout bounds each request, from dialling to the end of the body,
	// redirects included, in addition to the request's context. If zero,
	// the context alone bounds it, and a request whose context has no
	// deadline is refused.
	Timeout time.Duration
	// ConnectTimeout bounds the opening of each connection; zero means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// MaxResponseSize bounds a response body, in bytes; zero means
	// DefaultMaxResponseSize. Reading past it fails with a
	// *TooLargeError.
	MaxResponseSize int64
	// MaxRedirects bounds the redirects followed for one request; zero
	// means DefaultMaxRedirects, and a negative value follows none (the
	// redirect response is returned as it is).
	MaxRedirects int
}

// Client returns an HTTP client whose every connection goes through the
// policy's dialer, redirects included, without proxy or connection reuse,
// and whose requests are bounded as o says.
func (p *Policy) Client(o ClientOptions) *http.Client {
	connect := o.ConnectTimeout
	if connect <= 0 {
		connect = DefaultConnectTimeout
	}
	limit := o.MaxResponseSize
	if limit <= 0 {
		limit = DefaultMaxResponseSize
	}
	redirects := o.MaxRedirects
	if redirects == 0 {
		redirects = DefaultMaxRedirects
	}
	transport := &http.Transport{
		Proxy: nil, // a proxy would connect on the host's behalf, unchecked
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(ctx, connect)
			defer cancel()
			return p.DialContext(ctx, network, address)
		},
		DisableKeepAlives:      true, // every request and redirect dials, and is checked, anew
		DisableCompression:     true,
		TLSHandshakeTimeout:    connect,
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	return &http.Client{
		Transport: &guard{next: transport, limit: limit, needDeadline: o.Timeout <= 0},
		Timeout:   max(o.Timeout, 0),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if redirects < 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > redirects {
				return fmt.Errorf("player URL %s: stopped after %d redirects", via[0].URL, redirects)
			}
			if req.URL.User != nil {
				return fmt.Errorf("player URL %s: redirect to %s: user information is not allowed", via[0].URL, req.URL.Redacted())
			}
			return nil
		},
	}
}

// guard is the client's round tripper: it refuses requests without a
// deadline when the client has no timeout, names the URL in refusals, and
// caps response bodies.
type guard struct {
	next         http.RoundTripper
	limit        int64
	needDeadline bool
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, ok := req.Context().Deadline(); g.needDeadline && !ok {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("player URL %s: request without a deadline: give its context one, or the client a timeout", req.URL)
	}
	resp, err := g.next.RoundTrip(req)
	if err != nil {
		return nil, withURL(err, req.URL.String())
	}
	if resp.ContentLength > g.limit {
		resp.Body.Close()
		return nil, &TooLargeError{URL: req.URL.String(), Limit: g.limit, Length: resp.ContentLength}
	}
	resp.Body = &cappedBody{body: resp.Body, left: g.limit, url: req.URL.String(), limit: g.limit}
	return resp, nil
}

// A TooLargeError reports a response body larger than the client allows.
type TooLargeError struct {
	URL   string
	Limit int64
	// Length is the size the response announced, or -1 if it announced
	// none and was cut while being read.
	Length int64
}

func (e *TooLargeError) Error() string {
	if e.Length >= 0 {
		return fmt.Sprintf("player URL %s: response of %d bytes, more than the %d allowed", e.URL, e.Length, e.Limit)
	}
	return fmt.Sprintf("player URL %s: response cut at %d bytes, the most allowed", e.URL, e.Limit)
}

// cappedBody reads a response body and fails once it would exceed limit.
type cappedBody struct {
	body  io.ReadCloser
	left  int64
	limit int64
	url   string
	err   error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// Read one byte more than allowed, to tell a body of exactly the
	// limit from a longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.body.Read(p)
	if int64(n) > b.left {
		b.err = &TooLargeError{URL: b.url, Limit: b.limit, Length: -1}
		n, b.left = int(b.left), 0
		return n, b.err
	}
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.body.Close() }
