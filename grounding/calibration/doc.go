// Package calibration holds the constants that turn the offline engine's
// scores into decisions and confidences: the softmax temperature and the
// "none" candidate's score, the routing threshold, and the maps from the
// choice's softmax share to the confidence the user sees. They are fitted
// on the labelled dev file and written into fitted.go by one command (run
// from the repository root):
//
//	go generate ./grounding/calibration
//
// which runs gear tune --generate (docs/calibration.md). Package grounding
// (DefaultOptions) and package config (Defaults) both read them from here,
// and a test in package cli fails when fitted.go is not what the fit
// produces. The package has no imports, so both may depend on it.
package calibration

//go:generate go run ../.. --offline tune --dev ../../testdata/grounding-dev.jsonl --generate fitted.go
