module github.com/gorl/gorl

go 1.23.0

require (
	github.com/ebitengine/purego v0.10.0
	gonum.org/v1/gonum v0.16.0
)
