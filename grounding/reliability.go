package grounding

// ReliabilityBin is one row of a reliability diagram: the choices whose
// confidence falls in [Lo, Hi) (the last bin includes 1), how many, their
// mean confidence and the share of them that were right. A calibrated
// confidence has MeanConfidence ≈ Accuracy in every bin.
type ReliabilityBin struct {
	Lo             float64 `json:"lo"`
	Hi             float64 `json:"hi"`
	N              int     `json:"n"`
	MeanConfidence float64 `json:"mean_confidence"`
	Accuracy       float64 `json:"accuracy"`
}

// Reliability bins the predictions by confidence into ECEBins equal bins
// (those of the ECE).
func Reliability(preds []Prediction) []ReliabilityBin {
	bins := make([]ReliabilityBin, ECEBins)
	for b := range bins {
		bins[b].Lo, bins[b].Hi = float64(b)/ECEBins, float64(b+1)/ECEBins
	}
	for _, p := range preds {
		b := min(max(int(p.Confidence*ECEBins), 0), ECEBins-1)
		bins[b].N++
		bins[b].MeanConfidence += p.Confidence
		if p.Correct {
			bins[b].Accuracy++
		}
	}
	for b := range bins {
		if bins[b].N > 0 {
			bins[b].MeanConfidence /= float64(bins[b].N)
			bins[b].Accuracy /= float64(bins[b].N)
		}
	}
	return bins
}

// WrongAtOrAbove counts the wrong choices and those of them made with a
// confidence of at least c: the mistakes a confidence gate asking below c
// cannot catch.
func WrongAtOrAbove(preds []Prediction, c float64) (atOrAbove, wrong int) {
	for _, p := range preds {
		if !p.Correct {
			wrong++
			if p.Confidence >= c {
				atOrAbove++
			}
		}
	}
	return atOrAbove, wrong
}
