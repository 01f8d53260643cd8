package main

import (
	_ "github.com/gorl/gorl/env/maze" // registers MaskedMaze-v0 and Maze-v0
)
