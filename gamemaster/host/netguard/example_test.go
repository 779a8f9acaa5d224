package netguard_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/netguard"
	"github.com/ggp-go/ggp/player/remote"
)

func ExamplePolicy_CheckURL() {
	public, err := netguard.New(netguard.Config{})
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range []string{
		"http://player.example.org:9147/",
		"http://10.0.0.5:9147",
		"http://[::ffff:169.254.169.254]:80/",
		"http://player.example.org/",
	} {
		if _, err := public.CheckURL(u); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println("ok", u)
	}
	// Output:
	// ok http://player.example.org:9147/
	// player URL http://10.0.0.5:9147: address 10.0.0.5 is in a private range (10.0.0.0/8), which this host does not call; allow it with --allow
	// player URL http://[::ffff:169.254.169.254]:80/: address ::ffff:169.254.169.254, which leads to 169.254.169.254, is in the link-local range of cloud metadata services (169.254.0.0/16), which this host does not call; allow it with --allow
	// player URL http://player.example.org/: no port: write it, as in http://player.example.org:9147/
}

// A remote player called under the policy: its HTTP client for GDL
// messages, and its dialer for GDL-II ones, which it posts on connections
// of its own.
func ExamplePolicy_Client() {
	policy, err := netguard.New(netguard.Config{Allow: []string{"127.0.0.0/8"}})
	if err != nil {
		log.Fatal(err)
	}
	u, err := policy.CheckURL("http://127.0.0.1:9147/")
	if err != nil {
		log.Fatal(err)
	}
	p := &remote.Client{
		URL:         u.String(),
		PlayerName:  "registered name",
		HTTPClient:  policy.Client(netguard.ClientOptions{}),
		DialContext: policy.DialContext,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Info(ctx); err != nil {
		fmt.Println("player does not answer:", err)
	}
}
