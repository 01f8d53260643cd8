// Package classic implements Gymnasium's classic-control environments.
package classic
