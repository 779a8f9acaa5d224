// Package netguard decides which player URLs a public match host may call,
// and enforces the decision where it cannot be bypassed: when each
// connection is dialled.
//
// A match host calls URLs that strangers registered. Without a guard, a
// player could register http://169.254.169.254/ (a cloud provider's
// metadata service), http://10.0.0.5:6379/ or http://127.0.0.1:5432/ and
// have the host send requests into its own network: server-side request
// forgery. Checking the URL at registration is not enough, because a name
// can resolve to a public address when registered and to a private one
// when called (DNS rebinding), and a player can answer with a redirect.
// So a Policy checks URLs at registration, for clear early errors, and
// checks again the address of every connection its dialer opens: the
// dialer resolves the name itself, keeps only the addresses the policy
// allows, and connects to exactly those, so that no later resolution can
// substitute another. The clients it builds use no proxy (a proxy would
// make the connection on the host's behalf, to any address) and re-dial
// for every request and every redirect.
//
// By default, for a public host, the policy refuses loopback, private
// (RFC 1918, and RFC 4193's fc00::/7), link-local (169.254.0.0/16, which
// holds cloud metadata services, and fe80::/10), unspecified, multicast,
// shared (carrier-grade NAT, 100.64.0.0/10), reserved and benchmarking
// addresses, and the IPv6 forms that lead to IPv4 addresses among those
// (IPv4-mapped, IPv4-compatible, NAT64, 6to4). An operator lets some of
// them through with an allow-list of prefixes, addresses and host names
// (the host's --allow flag, such as --allow 127.0.0.0/8 for a host whose
// players run on the same machine), or turns the policy off for a private
// host whose players are all trusted.
//
// A remote player (player/remote) is called under a policy by giving it
// both the policy's client, for GDL messages, and the policy's dialer, for
// GDL-II messages, which it posts on connections of its own:
//
//	c := &remote.Client{URL: u.String(), HTTPClient: p.Client(opts), DialContext: p.DialContext}
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// AllowHint ends the message of a refusal: the match host's flag that
// lets the refused address through.
const AllowHint = "allow it with --allow"

// MaxURLLength bounds the length of a player URL, in bytes.
const MaxURLLength = 1024

// A Resolver looks up the addresses of a host name. *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Config describes a Policy.
type Config struct {
	// AllowAll turns the policy off: every address may be called. It is
	// for a private host, whose players are all trusted.
	AllowAll bool
	// Allow lists what may be called although it is in a refused range:
	// prefixes ("127.0.0.0/8", "fd00::/8"), single addresses ("10.0.0.5")
	// or host names ("player.lan"), every address of which is then
	// allowed.
	Allow []string
	// Resolver looks up host names when dialling. If nil,
	// net.DefaultResolver is used.
	Resolver Resolver
}

// A Policy decides which addresses a match host may call. Its methods may
// be called by several goroutines at once.
type Policy struct {
	allowAll   bool
	allowNets  []netip.Prefix
	allowHosts map[string]bool // canonical host names
	refused    []refusedRange
	resolver   Resolver

	// onDial, if set, is called with every address just before a
	// connection to it is opened. Tests use it to see that no refused
	// address is ever dialled.
	onDial func(netip.AddrPort)
}

// refusedRange is a range of addresses refused by default, with what it
// is, for error messages.
type refusedRange struct {
	prefix netip.Prefix
	what   string
}

// defaultRefused returns the ranges a public host refuses. Ranges that
// embed an IPv4 address (IPv4-mapped, NAT64, 6to4) are not here: the
// embedded address is checked instead.
func defaultRefused() []refusedRange {
	const private = "a private range"
	ranges := []struct{ prefix, what string }{
		{"0.0.0.0/8", "the unspecified (\"this network\") range"},
		{"10.0.0.0/8", private},
		{"100.64.0.0/10", "the shared (carrier-grade NAT) range"},
		{"127.0.0.0/8", "the loopback range"},
		{"169.254.0.0/16", "the link-local range of cloud metadata services"},
		{"172.16.0.0/12", private},
		{"192.0.0.0/24", "the IETF protocol assignments range"},
		{"192.168.0.0/16", private},
		{"198.18.0.0/15", "the benchmarking range"},
		{"224.0.0.0/4", "the multicast range"},
		{"240.0.0.0/4", "the reserved range (with the broadcast address)"},
		{"::/128", "the unspecified address"},
		{"::1/128", "the loopback range"},
		{"::/96", "the deprecated IPv4-compatible range"},
		{"64:ff9b:1::/48", "the local-use NAT64 range"},
		{"2001::/32", "the Teredo tunnelling range"},
		{"fc00::/7", "a private (unique local) range"},
		{"fe80::/10", "the link-local range"},
		{"fec0::/10", "the deprecated site-local range"},
		{"ff00::/8", "the multicast range"},
	}
	out := make([]refusedRange, len(ranges))
	for i, r := range ranges {
		out[i] = refusedRange{netip.MustParsePrefix(r.prefix), r.what}
	}
	return out
}

// New returns the policy cfg describes, or an error naming the first entry
// of cfg.Allow that is neither a prefix, an address nor a host name.
func New(cfg Config) (*Policy, error) {
	p := &Policy{
		allowAll:   cfg.AllowAll,
		allowHosts: make(map[string]bool),
		refused:    defaultRefused(),
		resolver:   cfg.Resolver,
	}
	if p.resolver == nil {
		p.resolver = net.DefaultResolver
	}
	for _, entry := range cfg.Allow {
		switch {
		case strings.Contains(entry, "/"):
			prefix, err := netip.ParsePrefix(entry)
			if err != nil {
				return nil, fmt.Errorf("allow %q: not a prefix such as 127.0.0.0/8: %w", entry, err)
			}
			p.allowNets = append(p.allowNets, prefix.Masked())
		case isAddr(entry):
			addr, _ := netip.ParseAddr(entry)
			addr = addr.WithZone("").Unmap()
			p.allowNets = append(p.allowNets, netip.PrefixFrom(addr, addr.BitLen()))
		default:
			if err := checkHostName(entry); err != nil {
				return nil, fmt.Errorf("allow %q: want a prefix, an address or a host name: %w", entry, err)
			}
			p.allowHosts[canonicalHost(entry)] = true
		}
	}
	return p, nil
}

func isAddr(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// canonicalHost is the form of a host name compared with the allow-list.
func canonicalHost(name string) string {
	return strings.TrimSuffix(strings.ToLower(name), ".")
}

// A RefusedError reports an address the policy does not let the host call.
type RefusedError struct {
	// URL is the player URL being called or registered, if known.
	URL string
	// Dial is the host:port being dialled, if URL is not known.
	Dial string
	// Name is the host name that resolved to Addr, if any.
	Name string
	// Addr is the refused address, and Target the IPv4 address it leads
	// to if it is an IPv6 form of one (else Addr).
	Addr, Target netip.Addr
	// Range is the refused range that holds Target, and What says what it
	// is, as in "a private range".
	Range netip.Prefix
	What  string
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	switch {
	case e.URL != "":
		fmt.Fprintf(&b, "player URL %s: ", e.URL)
	case e.Dial != "":
		fmt.Fprintf(&b, "dial %s: ", e.Dial)
	}
	fmt.Fprintf(&b, "address %s", e.Addr)
	if e.Name != "" {
		fmt.Fprintf(&b, " of %s", e.Name)
	}
	if e.Target != e.Addr {
		fmt.Fprintf(&b, ", which leads to %s,", e.Target)
	}
	fmt.Fprintf(&b, " is in %s (%s), which this host does not call; %s", e.What, e.Range, AllowHint)
	return b.String()
}

// CheckAddr returns nil if the policy lets the host call addr, and a
// *RefusedError saying why not otherwise.
func (p *Policy) CheckAddr(addr netip.Addr) error {
	if !addr.IsValid() {
		return fmt.Errorf("invalid address")
	}
	if p.allowAll {
		return nil
	}
	addr = addr.WithZone("")
	target := addr.Unmap()
	if embedded, ok := embeddedIPv4(target); ok {
		target = embedded
	}
	if p.allowed(addr) || p.allowed(target) {
		return nil
	}
	for _, r := range p.refused {
		if r.prefix.Contains(target) {
			return &RefusedError{Addr: addr, Target: target, Range: r.prefix, What: r.what}
		}
	}
	return nil
}

func (p *Policy) allowed(addr netip.Addr) bool {
	for _, n := range p.allowNets {
		if n.Contains(addr) {
			return true
		}
	}
	return false
}

// embeddedIPv4 returns the IPv4 address a NAT64 or 6to4 address leads to.
func embeddedIPv4(addr netip.Addr) (netip.Addr, bool) {
	nat64 := netip.PrefixFrom(netip.AddrFrom16([16]byte{0: 0x00, 1: 0x64, 2: 0xff, 3: 0x9b}), 96)
	sixToFour := netip.PrefixFrom(netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02}), 16)
	b := addr.As16()
	switch {
	case !addr.Is6():
		return netip.Addr{}, false
	case nat64.Contains(addr):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(addr):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// CheckURL checks a player URL at registration: an http or https URL of at
// most MaxURLLength bytes, with a host and an explicit port, without user
// information or fragment, whose host, if an address, the policy allows.
// It returns the URL parsed, with an empty path made "/". A host name is
// not resolved here (it could resolve differently when called): the
// dialer checks the addresses it resolves to at every call.
func (p *Policy) CheckURL(raw string) (*url.URL, error) {
	if len(raw) > MaxURLLength {
		return nil, fmt.Errorf("player URL %.40q...: %d bytes long, more than the %d allowed", raw, len(raw), MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("player URL %q: %w", raw, errors.Unwrap(err))
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("player URL %s: %s", raw, fmt.Sprintf(format, args...))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, bad("scheme %q: want http or https", u.Scheme)
	case u.Opaque != "" || u.Host == "":
		return nil, bad("no host: want a URL such as http://player.example.org:9147/")
	case u.User != nil:
		return nil, bad("user information is not allowed: it would be sent with every request")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, bad("a fragment is not allowed: it is never sent to the player")
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return nil, bad("no host: want a URL such as http://player.example.org:9147/")
	}
	if port == "" {
		return nil, bad("no port: write it, as in %s://%s:9147/", u.Scheme, u.Host)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, bad("port %s: want 1 to 65535", port)
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if err := p.CheckAddr(addr); err != nil {
			return nil, withURL(err, raw)
		}
	} else {
		if err := checkHostName(host); err != nil {
			return nil, bad("%v", err)
		}
		if err := p.checkLocalhost(host); err != nil {
			return nil, withURL(err, raw)
		}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

// checkLocalhost refuses localhost and its subdomains, which always name
// the loopback addresses (RFC 6761), unless those are allowed, so that the
// error comes at registration rather than at the first call.
func (p *Policy) checkLocalhost(host string) error {
	name := canonicalHost(host)
	if p.allowHosts[name] || (name != "localhost" && !strings.HasSuffix(name, ".localhost")) {
		return nil
	}
	for _, addr := range []netip.Addr{netip.IPv6Loopback(), netip.MustParseAddr("127.0.0.1")} {
		if err := p.CheckAddr(addr); err != nil {
			var re *RefusedError
			if errors.As(err, &re) {
				re.Name = host
			}
			return err
		}
	}
	return nil
}

// withURL returns err with the URL set, if it is a *RefusedError.
func withURL(err error, raw string) error {
	var re *RefusedError
	if errors.As(err, &re) {
		named := *re
		named.URL, named.Dial = raw, ""
		return &named
	}
	return err
}

// checkHostName returns nil if name is a DNS name: dot-separated labels of
// letters, digits, hyphens and underscores, 1 to 63 bytes each, 253 in
// all, the last not all digits. Numeric forms that some resolvers read as
// addresses ("2130706433", "0x7f.1", "127.1") are refused, so that what
// the policy checks is what is dialled.
func checkHostName(name string) error {
	trimmed := strings.TrimSuffix(name, ".")
	if trimmed == "" || len(trimmed) > 253 {
		return fmt.Errorf("host %q is not a DNS name", name)
	}
	labels := strings.Split(trimmed, ".")
	for _, label := range labels {
		if label == "" || len(label) > 63 {
			return fmt.Errorf("host %q is not a DNS name", name)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("host %q is not a DNS name", name)
			}
		}
	}
	last := strings.ToLower(labels[len(labels)-1])
	numeric := strings.HasPrefix(last, "0x")
	if !numeric {
		numeric = strings.Trim(last, "0123456789") == ""
	}
	if numeric {
		return fmt.Errorf("host %q looks like an address in a form this host does not read; write it as a.b.c.d", name)
	}
	return nil
}

// DialContext connects to address, a host:port, over TCP, if the policy
// allows it: a host name is resolved here, the addresses the policy
// refuses are dropped, and the connection is made to one of the others,
// which is checked again as the socket connects. It is meant for
// http.Transport.DialContext. Its time is bounded by ctx alone.
func (p *Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("dial %s %s: only TCP is allowed", network, address)
	}
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", address, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("dial %s: port %q: want 0 to 65535", address, portText)
	}
	if p.allowAll {
		var d net.Dialer
		return d.DialContext(ctx, network, address)
	}

	var candidates []netip.Addr
	byName := false
	if addr, err := netip.ParseAddr(host); err == nil {
		candidates = []netip.Addr{addr}
	} else {
		if err := checkHostName(host); err != nil {
			return nil, fmt.Errorf("dial %s: %w", address, err)
		}
		byName = p.allowHosts[canonicalHost(host)]
		ipNetwork := map[string]string{"tcp": "ip", "tcp4": "ip4", "tcp6": "ip6"}[network]
		candidates, err = p.resolver.LookupNetIP(ctx, ipNetwork, host)
		if err != nil {
			return nil, fmt.Errorf("dial %s: resolving %s: %w", address, host, err)
		}
		if len(candidates) == 0 {
			return nil, fmt.Errorf("dial %s: %s has no address", address, host)
		}
	}

	var firstRefusal error
	var dialErrs []error
	for _, addr := range candidates {
		if !byName {
			if err := p.CheckAddr(addr); err != nil {
				if firstRefusal == nil {
					var re *RefusedError
					if errors.As(err, &re) {
						re.Dial = address
						if addr.String() != host {
							re.Name = host
						}
					}
					firstRefusal = err
				}
				continue
			}
		}
		conn, err := p.dialChecked(ctx, network, netip.AddrPortFrom(addr.WithZone(""), uint16(port)), byName)
		if err == nil {
			return conn, nil
		}
		dialErrs = append(dialErrs, err)
		if ctx.Err() != nil {
			break
		}
	}
	if len(dialErrs) > 0 {
		return nil, fmt.Errorf("dial %s: %w", address, errors.Join(dialErrs...))
	}
	return nil, firstRefusal
}

// dialChecked connects to target, refusing at the socket any other
// address, or any address the policy refuses unless the host was allowed
// by name.
func (p *Policy) dialChecked(ctx context.Context, network string, target netip.AddrPort, byName bool) (net.Conn, error) {
	d := net.Dialer{
		ControlContext: func(_ context.Context, _, address string, _ syscall.RawConn) error {
			got, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("connecting to %s: %w", address, err)
			}
			if got.Addr().WithZone("").Unmap() != target.Addr().Unmap() || got.Port() != target.Port() {
				return fmt.Errorf("connecting to %s, not to the checked address %s", address, target)
			}
			if byName {
				return nil
			}
			return p.CheckAddr(got.Addr())
		},
	}
	if p.onDial != nil {
		p.onDial(target)
	}
	return d.DialContext(ctx, network, target.String())
}
