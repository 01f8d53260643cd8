package main

import _ "github.com/gorl/gorl/env/memory" // registers TMaze-v0 and TMaze-v0:L
