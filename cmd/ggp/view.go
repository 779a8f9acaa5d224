package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
)

// defaultViewPort is the port of ggp view and of the viewer that match and
// tournament start with --view.
const defaultViewPort = 8080

// runView serves the web viewer over folders of match records and
// tournaments.
func runView(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "view", "[--port P] [--games DIR,...] [DIR...]",
		"ggp view --games ../shared/games matches t1")
	port := flags.Int("port", defaultViewPort, "port to serve on, on the loopback interface (0: any free port)")
	gameDirs := flags.String("games", "", "folders of game folders (METADATA, stylesheet) searched for the boards' stylesheets before the bundled games")
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	for _, d := range args {
		if err := checkFolder("", d); err != nil {
			return err
		}
	}
	gds := splitList(*gameDirs)
	for _, d := range gds {
		if err := checkFolder("--games", d); err != nil {
			return err
		}
	}
	srv, err := view.New(view.Options{Dirs: args, GameDirs: gds})
	if err != nil {
		return err
	}
	url, wait, err := serveViewer(ctx, env, srv, *port, "--port")
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "viewing %s at %s (interrupt to stop)\n", strings.Join(args, ", "), url)
	<-ctx.Done()
	return wait()
}

// checkFolder checks that d, given with flag (if any), is a folder.
func checkFolder(flag, d string) error {
	st, err := os.Stat(d)
	if err == nil && !st.IsDir() {
		err = errors.New("not a folder")
	}
	if err != nil {
		if flag != "" {
			return fmt.Errorf("%w: %s: %s: %v", errUsage, flag, d, unwrapPath(err))
		}
		return fmt.Errorf("%w: %s: %v", errUsage, d, unwrapPath(err))
	}
	return nil
}

// unwrapPath returns the error of a *fs.PathError without the path, which
// the caller names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// serveViewer serves srv on the loopback interface until ctx is done, and
// returns the viewer's address and a function that, once ctx is done,
// waits until the server has shut down: its listener and connections
// closed and the goroutines serveViewer started returned. portFlag names
// the flag that sets the port, for the fix of a port in use.
func serveViewer(ctx context.Context, env *environment, srv *view.Server, port int, portFlag string) (string, func() error, error) {
	if port < 0 || port > 65535 {
		return "", nil, fmt.Errorf("%w: port %d out of range", errUsage, port)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		return "", nil, fmt.Errorf("viewer: port %d is in use, by another program or a ggp that still serves its viewer (stop it, or choose another port with %s PORT, or %s 0 for any free port): %w", port, portFlag, portFlag, err)
	}
	if err != nil {
		return "", nil, fmt.Errorf("viewer: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	shut := make(chan struct{})
	go func() {
		defer close(shut)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), viewerShutdown)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			// The pages' event streams, which do not end by themselves,
			// had until now to show the end of a match.
			hs.Close()
		}
	}()
	wait := sync.OnceValue(func() error {
		<-shut
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("viewer: %w", err)
		}
		return nil
	})
	return "http://" + ln.Addr().String(), wait, nil
}

// viewerShutdown bounds the wait for the viewer's requests to end once it
// is told to stop, after which their connections are closed. The pages
// watching a match have that long to be told how it ended.
const viewerShutdown = 2 * time.Second

// viewFlags are the flags of match and tournament that start a viewer.
type viewFlags struct {
	on     *bool
	port   *int
	linger *bool
	games  *string
}

func addViewFlags(flags *flag.FlagSet) *viewFlags {
	return &viewFlags{
		on:     flags.Bool("view", false, "show the match in a web browser as it is played (ggp view)"),
		port:   flags.Int("view-port", defaultViewPort, "port of the viewer, on the loopback interface (0: any free port)"),
		linger: flags.Bool("view-linger", true, "with --view, keep the viewer serving after the end until interrupted"),
		games:  flags.String("view-games", "", "folders of game folders searched for the boards' stylesheets (as ggp view --games)"),
	}
}

// matchViewer is the viewer of a running match or tournament.
type matchViewer struct {
	srv    *view.Server
	url    string
	env    *environment
	cancel context.CancelFunc
	wait   func() error
	keep   bool
}

func startMatchViewer(ctx context.Context, env *environment, f *viewFlags, dirs []string, gs []*games.Game) (*matchViewer, error) {
	gds := splitList(*f.games)
	for _, d := range gds {
		if err := checkFolder("--view-games", d); err != nil {
			return nil, err
		}
	}
	srv, err := view.New(view.Options{Dirs: dirs, GameDirs: gds, Games: gs})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	url, wait, err := serveViewer(ctx, env, srv, *f.port, "--view-port")
	if err != nil {
		cancel()
		return nil, err
	}
	return &matchViewer{srv: srv, url: url, env: env, cancel: cancel, wait: wait, keep: *f.linger}, nil
}

// linger keeps the viewer serving, once the match or tournament is over,
// until ctx is done, if asked to.
func (v *matchViewer) linger(ctx context.Context) {
	if !v.keep || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(v.env.stdout, "viewer still serving at %s; interrupt to stop\n", v.url)
	<-ctx.Done()
}

func (v *matchViewer) close() {
	v.cancel()
	v.wait()
}

// both returns a function that calls f and then g, either of which may be
// nil.
func both[T any](f, g func(T)) func(T) {
	switch {
	case f == nil:
		return g
	case g == nil:
		return f
	}
	return func(x T) { f(x); g(x) }
}
