package main

import _ "github.com/gorl/gorl/env/minatar" // registers the MinAtar games
