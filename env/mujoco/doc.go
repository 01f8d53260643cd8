// Package mujoco implements Gymnasium's v4 MuJoCo tasks on the MuJoCo
// physics library: InvertedPendulum-v4, InvertedDoublePendulum-v4,
// Reacher-v4, Swimmer-v4, Hopper-v4, Walker2d-v4, HalfCheetah-v4, Ant-v4
// and Humanoid-v4, registered with the env package under those ids.
package mujoco
