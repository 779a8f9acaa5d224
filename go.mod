module github.com/ggp-go/ggp

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/ichiban/prolog v1.2.2 // indirect
)
