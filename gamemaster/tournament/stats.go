package tournament

// MeanCI95 returns the mean of xs and the half-width of its 95%
// confidence interval by Student's t, as the standings and comparisons of
// a tournament give them: the half-width is -1 with fewer than two
// values. Tools that sum up results.json in other ways use it so that
// their intervals are the tournament's.
func MeanCI95(xs []float64) (mean, half float64) { return meanCI95(xs) }
