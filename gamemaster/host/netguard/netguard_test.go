package netguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newPolicy(t *testing.T, cfg Config) *Policy {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return p
}

func TestCheckAddr(t *testing.T) {
	public := Config{}
	loopback := Config{Allow: []string{"127.0.0.0/8"}}
	single := Config{Allow: []string{"10.0.0.5", "fd00::/8"}}
	for _, tc := range []struct {
		cfg   Config
		addr  string
		what  string // "" if allowed, else the refused range's description
		rng   string
		leads string // the IPv4 address an IPv6 form leads to
	}{
		{cfg: public, addr: "127.0.0.1", what: "the loopback range", rng: "127.0.0.0/8"},
		{cfg: public, addr: "127.255.255.254", what: "the loopback range", rng: "127.0.0.0/8"},
		{cfg: public, addr: "10.0.0.5", what: "a private range", rng: "10.0.0.0/8"},
		{cfg: public, addr: "172.16.0.1", what: "a private range", rng: "172.16.0.0/12"},
		{cfg: public, addr: "172.31.255.255", what: "a private range", rng: "172.16.0.0/12"},
		{cfg: public, addr: "172.32.0.1"},
		{cfg: public, addr: "192.168.1.1", what: "a private range", rng: "192.168.0.0/16"},
		{cfg: public, addr: "100.64.0.1", what: "carrier-grade NAT", rng: "100.64.0.0/10"},
		{cfg: public, addr: "100.127.255.255", what: "carrier-grade NAT", rng: "100.64.0.0/10"},
		{cfg: public, addr: "100.128.0.1"},
		{cfg: public, addr: "169.254.169.254", what: "cloud metadata", rng: "169.254.0.0/16"},
		{cfg: public, addr: "0.0.0.0", what: "unspecified", rng: "0.0.0.0/8"},
		{cfg: public, addr: "224.0.0.1", what: "multicast", rng: "224.0.0.0/4"},
		{cfg: public, addr: "255.255.255.255", what: "broadcast", rng: "240.0.0.0/4"},
		{cfg: public, addr: "198.18.0.1", what: "benchmarking", rng: "198.18.0.0/15"},
		{cfg: public, addr: "8.8.8.8"},
		{cfg: public, addr: "1.1.1.1"},
		{cfg: public, addr: "::1", what: "the loopback range", rng: "::1/128"},
		{cfg: public, addr: "::", what: "unspecified", rng: "::/128"},
		{cfg: public, addr: "fc00::1", what: "unique local", rng: "fc00::/7"},
		{cfg: public, addr: "fd12:3456::1", what: "unique local", rng: "fc00::/7"},
		{cfg: public, addr: "fe80::1", what: "link-local", rng: "fe80::/10"},
		{cfg: public, addr: "fe80::1%eth0", what: "link-local", rng: "fe80::/10"},
		{cfg: public, addr: "fec0::1", what: "site-local", rng: "fec0::/10"},
		{cfg: public, addr: "ff02::1", what: "multicast", rng: "ff00::/8"},
		{cfg: public, addr: "::127.0.0.1", what: "IPv4-compatible", rng: "::/96"},
		{cfg: public, addr: "::ffff:127.0.0.1", what: "the loopback range", rng: "127.0.0.0/8", leads: "127.0.0.1"},
		{cfg: public, addr: "::ffff:10.0.0.5", what: "a private range", rng: "10.0.0.0/8", leads: "10.0.0.5"},
		{cfg: public, addr: "::ffff:169.254.169.254", what: "link-local", rng: "169.254.0.0/16", leads: "169.254.169.254"},
		{cfg: public, addr: "::ffff:8.8.8.8"},
		{cfg: public, addr: "64:ff9b::a00:5", what: "a private range", rng: "10.0.0.0/8", leads: "10.0.0.5"},
		{cfg: public, addr: "64:ff9b::808:808"},
		{cfg: public, addr: "64:ff9b:1::1", what: "NAT64", rng: "64:ff9b:1::/48"},
		{cfg: public, addr: "2002:a9fe:a9fe::1", what: "link-local", rng: "169.254.0.0/16", leads: "169.254.169.254"},
		{cfg: public, addr: "2002:808:808::1"},
		{cfg: public, addr: "2001:0:4136:e378::1", what: "Teredo", rng: "2001::/32"},
		{cfg: public, addr: "2001:4860:4860::8888"},

		{cfg: loopback, addr: "127.0.0.1"},
		{cfg: loopback, addr: "127.0.0.2"},
		{cfg: loopback, addr: "::ffff:127.0.0.1"},
		{cfg: loopback, addr: "::1", what: "the loopback range", rng: "::1/128"},
		{cfg: loopback, addr: "10.0.0.5", what: "a private range", rng: "10.0.0.0/8"},

		{cfg: single, addr: "10.0.0.5"},
		{cfg: single, addr: "::ffff:10.0.0.5"},
		{cfg: single, addr: "10.0.0.6", what: "a private range", rng: "10.0.0.0/8"},
		{cfg: single, addr: "fd00::1"},
		{cfg: single, addr: "fc00::1", what: "unique local", rng: "fc00::/7"},

		{cfg: Config{AllowAll: true}, addr: "127.0.0.1"},
		{cfg: Config{AllowAll: true}, addr: "169.254.169.254"},
		{cfg: Config{AllowAll: true}, addr: "::ffff:10.0.0.5"},
	} {
		name := fmt.Sprintf("%s allow %v all %v", tc.addr, tc.cfg.Allow, tc.cfg.AllowAll)
		t.Run(name, func(t *testing.T) {
			err := newPolicy(t, tc.cfg).CheckAddr(netip.MustParseAddr(tc.addr))
			if tc.what == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a *RefusedError", err)
			}
			msg := err.Error()
			for _, want := range []string{"address " + netip.MustParseAddr(tc.addr).WithZone("").String(), tc.what, "(" + tc.rng + ")", "which this host does not call; allow it with --allow"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not say %q", msg, want)
				}
			}
			if tc.leads != "" && !strings.Contains(msg, "leads to "+tc.leads) {
				t.Errorf("error %q does not say it leads to %s", msg, tc.leads)
			}
			if re.Range.String() != tc.rng {
				t.Errorf("range %s, want %s", re.Range, tc.rng)
			}
		})
	}
	if err := newPolicy(t, Config{}).CheckAddr(netip.Addr{}); err == nil {
		t.Errorf("the zero address was allowed")
	}
}

func TestNewRejectsBadAllowEntries(t *testing.T) {
	for _, entry := range []string{"", "10.0.0.0/33", "10.0.0.0/", "not a host!", "http://x", "a..b", "2130706433", "0x7f.1", strings.Repeat("a", 64) + ".org"} {
		_, err := New(Config{Allow: []string{"127.0.0.1", entry}})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("allow %q", entry)) {
			t.Errorf("allow %q: error %v, want one naming the entry", entry, err)
		}
	}
	p := newPolicy(t, Config{Allow: []string{"10.1.2.3/8", "Player.LAN."}})
	if err := p.CheckAddr(netip.MustParseAddr("10.200.0.1")); err != nil {
		t.Errorf("10.1.2.3/8 should allow 10.0.0.0/8: %v", err)
	}
	if !p.allowHosts["player.lan"] {
		t.Errorf("host names %v, want player.lan", p.allowHosts)
	}
}

func TestCheckURL(t *testing.T) {
	public := Config{}
	local := Config{Allow: []string{"127.0.0.0/8", "::1"}}
	for _, tc := range []struct {
		cfg  Config
		url  string
		want string // the normalised URL, or with err
		err  string // part of the error, "" if accepted
	}{
		{cfg: public, url: "http://player.example.org:9147/", want: "http://player.example.org:9147/"},
		{cfg: public, url: "http://player.example.org:9147", want: "http://player.example.org:9147/"},
		{cfg: public, url: "https://player.example.org:443/ggp?x=1", want: "https://player.example.org:443/ggp?x=1"},
		{cfg: public, url: "http://8.8.8.8:9147/", want: "http://8.8.8.8:9147/"},
		{cfg: public, url: "http://[2001:4860:4860::8888]:9147/", want: "http://[2001:4860:4860::8888]:9147/"},
		{cfg: public, url: "http://10.0.0.5:9147", err: "player URL http://10.0.0.5:9147: address 10.0.0.5 is in a private range (10.0.0.0/8), which this host does not call; allow it with --allow"},
		{cfg: public, url: "http://127.0.0.1:9147/", err: "address 127.0.0.1 is in the loopback range (127.0.0.0/8)"},
		{cfg: public, url: "http://[::1]:9147/", err: "address ::1 is in the loopback range"},
		{cfg: public, url: "http://[::ffff:169.254.169.254]:80/", err: "which leads to 169.254.169.254, is in the link-local range"},
		{cfg: public, url: "http://localhost:9147/", err: "of localhost is in the loopback range"},
		{cfg: public, url: "http://game.LOCALHOST.:9147/", err: "of game.LOCALHOST. is in the loopback range"},
		{cfg: local, url: "http://127.0.0.1:9147/", want: "http://127.0.0.1:9147/"},
		{cfg: local, url: "http://localhost:9147/", want: "http://localhost:9147/"},
		{cfg: Config{Allow: []string{"localhost"}}, url: "http://localhost:9147/", want: "http://localhost:9147/"},
		{cfg: Config{AllowAll: true}, url: "http://10.0.0.5:9147/", want: "http://10.0.0.5:9147/"},
		{cfg: public, url: "ftp://player.example.org:21/", err: `scheme "ftp": want http or https`},
		{cfg: public, url: "player.example.org:9147", err: `want http or https`},
		{cfg: public, url: "/relative", err: `scheme "": want http or https`},
		{cfg: public, url: "http:opaque", err: "no host"},
		{cfg: public, url: "http://:9147/", err: "no host"},
		{cfg: public, url: "http://user:secret@player.example.org:9147/", err: "user information is not allowed"},
		{cfg: public, url: "http://player.example.org:9147/#top", err: "fragment"},
		{cfg: public, url: "http://player.example.org/", err: "no port: write it, as in http://player.example.org:9147/"},
		{cfg: public, url: "http://player.example.org:0/", err: "port 0: want 1 to 65535"},
		{cfg: public, url: "http://player.example.org:99999/", err: "port 99999"},
		{cfg: public, url: "http://2130706433:9147/", err: "looks like an address"},
		{cfg: public, url: "http://0x7f.1:9147/", err: "looks like an address"},
		{cfg: public, url: "http://127.1:9147/", err: "looks like an address"},
		{cfg: public, url: "http://pla%20yer:9147/", err: "invalid URL escape"},
		{cfg: public, url: "http://pla!yer:9147/", err: `host "pla!yer" is not a DNS name`},
		{cfg: public, url: "http://player .org:9147/", err: "player URL"},
		{cfg: public, url: "http://a\x00b:9147/", err: "player URL"},
		{cfg: public, url: "http://" + strings.Repeat("a", MaxURLLength) + ".org:9147/", err: fmt.Sprintf("more than the %d allowed", MaxURLLength)},
	} {
		t.Run(tc.url, func(t *testing.T) {
			u, err := newPolicy(t, tc.cfg).CheckURL(tc.url)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "player URL") {
					t.Fatalf("error %v, want one starting \"player URL\" that says %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if u.String() != tc.want {
				t.Errorf("URL %s, want %s", u, tc.want)
			}
		})
	}
}

// fakeResolver answers from a table, so that tests resolve names without
// any network. A name's answers are given in turn, the last repeated.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	asked   map[string]int
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	answers, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(r.asked[host], len(answers)-1)
	if r.asked == nil {
		r.asked = make(map[string]int)
	}
	r.asked[host]++
	return answers[i], nil
}

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, a := range s {
		out = append(out, netip.MustParseAddr(a))
	}
	return out
}

// recorder notes every address a policy dials, to check that only
// loopback ones are.
type recorder struct {
	mu     sync.Mutex
	dialed []netip.AddrPort
}

func (r *recorder) watch(p *Policy) *Policy {
	p.onDial = func(a netip.AddrPort) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.dialed = append(r.dialed, a)
	}
	return p
}

func (r *recorder) check(t *testing.T, want ...string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var got []string
	for _, a := range r.dialed {
		if !a.Addr().IsLoopback() {
			t.Errorf("dialled %s, which is not loopback", a)
		}
		got = append(got, a.Addr().String())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dialled %v, want %v", got, want)
	}
}

// server returns a test server on 127.0.0.1 that runs handler, or answers
// "ok" if it is nil, and a function that counts the requests received.
func server(t *testing.T, handler http.HandlerFunc) (*httptest.Server, func() int) {
	t.Helper()
	var received atomic.Int64
	if handler == nil {
		handler = func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() int { return int(received.Load()) }
}

func get(t *testing.T, c *http.Client, u string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}

func TestClientLoopbackServer(t *testing.T) {
	srv, count := server(t, nil)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	resolver := &fakeResolver{answers: map[string][][]netip.Addr{"player.test": {addrs("127.0.0.1")}}}
	for _, tc := range []struct {
		name   string
		cfg    Config
		url    string
		refuse string // part of the refusal, "" if allowed
	}{
		{name: "refused by default", url: srv.URL, refuse: "player URL " + srv.URL + ": address 127.0.0.1 is in the loopback range (127.0.0.0/8)"},
		{name: "refused by name", url: "http://player.test:" + port + "/", refuse: "address 127.0.0.1 of player.test is in the loopback range"},
		{name: "allowed by prefix", cfg: Config{Allow: []string{"127.0.0.0/8"}}, url: srv.URL},
		{name: "allowed by address", cfg: Config{Allow: []string{"127.0.0.1"}}, url: "http://player.test:" + port + "/"},
		{name: "allowed by name", cfg: Config{Allow: []string{"player.test"}}, url: "http://player.test:" + port + "/"},
		{name: "allowed name does not allow its address", cfg: Config{Allow: []string{"player.test"}}, url: srv.URL, refuse: "loopback"},
		{name: "allow all", cfg: Config{AllowAll: true}, url: srv.URL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Resolver = resolver
			var rec recorder
			p := rec.watch(newPolicy(t, tc.cfg))
			before := count()
			body, err := get(t, p.Client(ClientOptions{}), tc.url)
			if tc.refuse == "" {
				if err != nil || body != "ok" {
					t.Fatalf("got %q, %v; want ok", body, err)
				}
				if count() != before+1 {
					t.Errorf("server saw %d requests, want 1", count()-before)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.refuse) || !strings.Contains(err.Error(), AllowHint) {
				t.Fatalf("error %v, want a refusal saying %q", err, tc.refuse)
			}
			if count() != before {
				t.Errorf("server saw %d requests, want none", count()-before)
			}
			rec.check(t)
		})
	}
}

func TestRedirects(t *testing.T) {
	resolver := &fakeResolver{answers: map[string][][]netip.Addr{
		"rebind.test":   {addrs("10.0.0.5")},
		"metadata.test": {addrs("::ffff:169.254.169.254")},
	}}
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		if r.URL.Path == "/loop" {
			http.Redirect(w, r, "/loop", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	})
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	redirect := func(to string) string { return srv.URL + "/?to=" + url.QueryEscape(to) }
	for _, tc := range []struct {
		name   string
		url    string
		opt    ClientOptions
		refuse string // part of the error, "" if allowed
		dials  int
	}{
		{name: "to an allowed address", url: redirect(srv.URL + "/done"), dials: 2},
		{name: "to a private address", url: redirect("http://10.0.0.5:9147/"), refuse: "player URL http://10.0.0.5:9147/: address 10.0.0.5 is in a private range (10.0.0.0/8), which this host does not call; allow it with --allow", dials: 1},
		{name: "to cloud metadata", url: redirect("http://169.254.169.254/latest/meta-data/"), refuse: "address 169.254.169.254 is in the link-local range", dials: 1},
		{name: "to a mapped address", url: redirect("http://[::ffff:169.254.169.254]:80/"), refuse: "which leads to 169.254.169.254", dials: 1},
		{name: "to a name of a private address", url: redirect("http://rebind.test:9147/"), refuse: "address 10.0.0.5 of rebind.test is in a private range", dials: 1},
		{name: "to a name of a mapped address", url: redirect("http://metadata.test/"), refuse: "of metadata.test, which leads to 169.254.169.254", dials: 1},
		{name: "to a loopback address not allowed", url: redirect("http://127.0.0.2:" + port + "/"), refuse: "address 127.0.0.2 is in the loopback range", dials: 1},
		{name: "to a URL with user information", url: redirect("http://user:pw@127.0.0.1:" + port + "/"), refuse: "user information is not allowed", dials: 1},
		{name: "endless", url: srv.URL + "/loop", refuse: fmt.Sprintf("stopped after %d redirects", DefaultMaxRedirects), dials: DefaultMaxRedirects + 1},
		{name: "endless, bounded lower", url: srv.URL + "/loop", opt: ClientOptions{MaxRedirects: 1}, refuse: "stopped after 1 redirects", dials: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			p := rec.watch(newPolicy(t, Config{Allow: []string{"127.0.0.1/32"}, Resolver: resolver}))
			body, err := get(t, p.Client(tc.opt), tc.url)
			want := make([]string, tc.dials)
			for i := range want {
				want[i] = "127.0.0.1"
			}
			rec.check(t, want...)
			if tc.refuse == "" {
				if err != nil || body != "ok" {
					t.Fatalf("got %q, %v; want ok", body, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refuse) {
				t.Fatalf("error %v, want one saying %q", err, tc.refuse)
			}
		})
	}

	t.Run("not followed", func(t *testing.T) {
		p := newPolicy(t, Config{Allow: []string{"127.0.0.1/32"}})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, redirect("http://10.0.0.5:9147/"), nil)
		resp, err := p.Client(ClientOptions{MaxRedirects: -1}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound {
			t.Errorf("status %d, want the redirect itself, %d", resp.StatusCode, http.StatusFound)
		}
	})
}

// TestDNSRebinding checks that a name is checked at every call: allowed
// while it resolves to an allowed address, refused once it resolves to
// another, and that of several addresses only the allowed are dialled.
func TestDNSRebinding(t *testing.T) {
	srv, count := server(t, nil)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	resolver := &fakeResolver{answers: map[string][][]netip.Addr{
		"rebind.test": {addrs("127.0.0.1"), addrs("10.0.0.5")},
		"mixed.test":  {addrs("10.0.0.5", "169.254.169.254", "127.0.0.1")},
	}}
	var rec recorder
	p := rec.watch(newPolicy(t, Config{Allow: []string{"127.0.0.1/32"}, Resolver: resolver}))
	c := p.Client(ClientOptions{})

	if body, err := get(t, c, "http://rebind.test:"+port+"/"); err != nil || body != "ok" {
		t.Fatalf("first call: %q, %v; want ok", body, err)
	}
	_, err := get(t, c, "http://rebind.test:"+port+"/")
	if want := "address 10.0.0.5 of rebind.test is in a private range"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("second call: error %v, want one saying %q", err, want)
	}
	if body, err := get(t, c, "http://mixed.test:"+port+"/"); err != nil || body != "ok" {
		t.Fatalf("mixed: %q, %v; want ok from 127.0.0.1", body, err)
	}
	if count() != 2 {
		t.Errorf("server saw %d requests, want 2", count())
	}
	rec.check(t, "127.0.0.1", "127.0.0.1")
}

func TestResponseSize(t *testing.T) {
	const limit = 1000
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.URL.Query().Get("n"), &n)
		if r.URL.Query().Get("chunked") != "" {
			// Flushing before the end leaves the length unannounced.
			w.Write([]byte(strings.Repeat("x", n/2)))
			w.(http.Flusher).Flush()
			w.Write([]byte(strings.Repeat("x", n-n/2)))
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(n))
		w.Write([]byte(strings.Repeat("x", n)))
	})
	p := newPolicy(t, Config{Allow: []string{"127.0.0.1"}})
	c := p.Client(ClientOptions{MaxResponseSize: limit})
	for _, tc := range []struct {
		n       int
		chunked bool
		err     string
	}{
		{n: limit},
		{n: limit, chunked: true},
		{n: 0},
		{n: limit + 1, err: fmt.Sprintf("response of %d bytes, more than the %d allowed", limit+1, limit)},
		{n: 1 << 20, err: fmt.Sprintf("response of %d bytes, more than the %d allowed", 1<<20, limit)},
		{n: limit + 1, chunked: true, err: fmt.Sprintf("response cut at %d bytes, the most allowed", limit)},
		{n: 1 << 20, chunked: true, err: fmt.Sprintf("response cut at %d bytes, the most allowed", limit)},
	} {
		t.Run(fmt.Sprintf("%d chunked %v", tc.n, tc.chunked), func(t *testing.T) {
			u := fmt.Sprintf("%s/?n=%d", srv.URL, tc.n)
			if tc.chunked {
				u += "&chunked=1"
			}
			body, err := get(t, c, u)
			if tc.err == "" {
				if err != nil || len(body) != tc.n {
					t.Fatalf("got %d bytes, %v; want %d", len(body), err, tc.n)
				}
				return
			}
			var tl *TooLargeError
			if !errors.As(err, &tl) || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "player URL "+u) {
				t.Fatalf("error %v, want a *TooLargeError naming the URL and saying %q", err, tc.err)
			}
			if len(body) > limit {
				t.Errorf("read %d bytes, more than the limit %d", len(body), limit)
			}
		})
	}
}

func TestTimeBounds(t *testing.T) {
	release := make(chan struct{})
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	p := newPolicy(t, Config{Allow: []string{"127.0.0.1"}})

	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	if _, err := p.Client(ClientOptions{}).Do(req); err == nil || !strings.Contains(err.Error(), "request without a deadline") {
		t.Errorf("request without a deadline: error %v, want a refusal", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if _, err := p.Client(ClientOptions{}).Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent player, context deadline: error %v, want the deadline exceeded", err)
	}

	req, _ = http.NewRequest(http.MethodGet, srv.URL, nil)
	_, err := p.Client(ClientOptions{Timeout: 50 * time.Millisecond}).Do(req)
	var ue *url.Error
	if !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("silent player, client timeout: error %v, want a timeout", err)
	}
}

func TestDialContext(t *testing.T) {
	p := newPolicy(t, Config{Resolver: &fakeResolver{}})
	for _, tc := range []struct {
		network, address, err string
	}{
		{"udp", "8.8.8.8:53", "only TCP"},
		{"tcp", "8.8.8.8", "missing port"},
		{"tcp", "8.8.8.8:http", "want 0 to 65535"},
		{"tcp", "nowhere.test:80", "resolving nowhere.test"},
		{"tcp", "127.1:80", "looks like an address"},
		{"tcp", "[fe80::1%lo]:80", "address fe80::1 is in the link-local range"},
	} {
		conn, err := p.DialContext(context.Background(), tc.network, tc.address)
		if err == nil {
			conn.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("dial %s %s: error %v, want one saying %q", tc.network, tc.address, err, tc.err)
		}
	}
}
