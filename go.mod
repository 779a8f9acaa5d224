module github.com/ggp-go/ggp

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/gorilla/mux v1.8.1
	github.com/ichiban/prolog v1.2.2
	github.com/peterh/liner v1.2.3
)

require (
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
