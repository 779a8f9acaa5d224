module github.com/ggp-go/ggp

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/ichiban/prolog v1.2.2 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	github.com/peterh/liner v1.2.3
	golang.org/x/sys v0.48.0 // indirect
)
