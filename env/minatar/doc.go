// Package minatar implements the five games of MinAtar (Young & Tian,
// 2019, "MinAtar: An Atari-Inspired Testbed for Thorough and Reproducible
// Reinforcement Learning Experiments"): Asterix, Breakout, Freeway, Seaquest
// and Space Invaders, miniature Atari games on a 10×10 grid whose
// observation has one binary channel per kind of object. They are the small
// stand-in for Atari on which gorl's convolutional networks train in
// minutes.
//
// # Overview
//
// Importing the package registers ten ids with package env:
//
//	Asterix-MinAtar-v0  Breakout-MinAtar-v0  Freeway-MinAtar-v0  Seaquest-MinAtar-v0  SpaceInvaders-MinAtar-v0
//	Asterix-MinAtar-v1  Breakout-MinAtar-v1  Freeway-MinAtar-v1  Seaquest-MinAtar-v1  SpaceInvaders-MinAtar-v1
//
// The v0 ids have all six actions (no-op, left, up, right, down, fire), as
// in the MinAtar paper's experiments; the v1 ids only the game's minimal
// set (Breakout: no-op, left, right), as MinAtar's Gymnasium ids of the
// same versions. Both have sticky actions with probability 0.1 and
// difficulty ramping. New makes a game with other settings (Config).
//
// Observations are uint8 arrays [channels, 10, 10] of 0 and 1; the rules of
// each game, and what each channel shows, are in the comments of its type
// in the source. Rewards are integers; the episode ends when the game is
// over, never by truncation.
//
// # Invariants
//
//   - A seed determines an episode: the games, the sticky actions and the
//     spawns draw from the env's one PCG stream, which MarshalState saves
//     with the game, so a restored env continues exactly.
//   - Step and Reset do not allocate; the observation array is the same
//     on every call.
//   - UnmarshalState checks every field against the game's bounds: corrupt
//     input is an error wrapping env.ErrState, never a panic.
//
// # Aliasing
//
// The observation and the frame of Render are owned by the env and
// overwritten by its next call. The observation must not be written to:
// Step changes only the cells that the frame changed.
//
// # Decisions
//
// The ids follow gymnax's names (Breakout-MinAtar) rather than MinAtar's
// own Gymnasium ids (MinAtar/Breakout-v1): the slash cannot appear in the
// command-line tool's preset file names, and a Python MinAtar reached
// through the Gymnasium bridge keeps its own ids (gym:MinAtar/Breakout-v1)
// without clashing. The version keeps MinAtar's meaning (v0 full, v1
// minimal actions).
//
// Channels come first ([channels, 10, 10]) instead of MinAtar's
// [10, 10, channels], because gorl's convolutions take NCHW input, as
// MinAtar's own DQN permutes its input to. The values are uint8, as
// MinAtar's Gymnasium Box, so a replay buffer of a million observations
// takes a quarter of the memory of float32; the networks convert them.
//
// The rules are written from the paper's and the MinAtar repository's
// description of the games, including the order in which each frame
// updates the objects, which decides what a collision does. The tests
// replay the random draws of recorded MinAtar 1.0.15 games into ours and
// find every frame, reward and game over equal (3000 frames of each game
// under random play, and more under policies that score). Where the
// reference behaves in a way its description does not say, we follow the
// reference when the behaviour is part of the game (a Breakout ball cannot
// break bricks on two frames in a row; a Seaquest enemy sub destroyed in a
// frame still fires if its shot is due) and the description where the
// reference has a bug: surfacing in Seaquest with six divers empties the
// sub (MinAtar leaves a count of −1, which lets the player surface again
// without a diver and without ending the game).
//
// The random draws come from Go's PCG, not numpy's Mersenne Twister, so a
// seed does not give MinAtar's episode; the distributions are the same.
// Sticky actions restart from no-op at every Reset, where MinAtar keeps the
// last action of the previous episode, so that a seed alone fixes an
// episode.
//
// Step brings the observation from the previous frame to the new one
// instead of clearing and redrawing it: Breakout clears and sets the three
// cells of its paddle, ball and trail and copies its bricks only when one
// broke or the wall came back; Asterix moves its player's cell and redraws
// the entities' channels only on the frames where one spawned, moved or
// went (about one frame in five at first); Seaquest moves its sub's two cells, copies
// its bars when they change, redraws the bullets' channels when there are bullets, and
// copies the channels of the fish, enemy subs, divers and trails, which it
// keeps as they move, when one of them changed. Freeway and
// Space Invaders, whose objects move on most frames, are cleared and drawn
// whole. The games remember what they drew for this; Reset and
// UnmarshalState draw the frame whole. The reference test checks the
// redrawn frames against the recorded ones next to the frames drawn whole.
//
// Asterix keeps whether each of its eight slots is active, moves right
// and is gold as bits of three masks, and finds the spawn's free slot in a
// table indexed by the free slots' mask and the drawn index, so that
// walking the active slots, drawing them and picking a spawn's slot take
// no walk over all eight slots and no branch on each slot's kind or
// direction.
//
// Seaquest keeps its objects of each kind in a fixed array in the order
// they appeared, as MinAtar's lists: the order decides which of two
// objects in one cell a bullet or an enemy takes and which moves first.
// Its timers, which MinAtar counts down every frame, are the frames on
// which they run out, and the fish, enemy subs and divers are walked only
// on the frames where a move or shot is due (or a diver is in the sub's
// cell), and a frame before the earliest of them all compares one frame
// number. Counts of the fish, enemy subs, divers and trails in each cell
// answer the collisions with the sub and the bullets, and every change to
// a count also sets the cell in a copy of the four channels (set while the
// count is not 0), which redraw copies into the observation: a moving
// enemy changes four cells, where drawing the channels anew took a clear
// of 400 bytes and a walk over every mover, three loops whose lengths are
// random. The enemy bullets, which touch nothing but the sub, are two bit
// boards (by direction) that move by a shift of each word; two in one cell
// moving the same way, which no game produces, are kept as one; a flag
// says whether there are any. The saved state keeps MinAtar's fields and
// its format (the timers as frames left; the enemy bullets by direction
// and cell), and holds at most 64 objects of a kind, far above a game's
// (earlier states allowed 256: more than 64 is an error).
//
// Env reads a 0-d int64 action with nd's Int64Item, in a function small
// enough to be inlined into Step, and picks the sticky action without a
// branch on the random draw.
//
// Tried and not kept: drawing the gap to the next sticky step from
// the geometric law (one logarithm per ten steps, a countdown in between)
// instead of one draw per step was slower in every game, the logarithm
// costing more than the draws it saves. In Seaquest, counting each
// channel's movers per cell and redrawing only the rows where one
// changed, instead of clearing and redrawing the movers' channels, took
// more work per frame than it saved, and so did firing without a branch
// (the shot written on every frame, kept when fired). Recording the
// movers' changed cells for redraw to set one by one, instead of keeping
// a copy of their channels, was slower (more work per move, and a loop of
// random length); lookup tables for the sub's moves and a loop instead of
// copy for removals from a list saved under 2% of the instructions.
//
// Rendering draws each cell as a CellPixels square in the colour of the
// highest channel set there (black when none), as MinAtar's display does,
// with a fixed palette instead of seaborn's cubehelix.
package minatar
