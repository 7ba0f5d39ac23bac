package api

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"primegames/play"
)

// The worker (play/bots.go) reports its figures through play.Service (ObserveWorker, QueueDepth);
// they are turned into metrics here, beside the server's registry, so that play knows nothing of
// Prometheus.

// workerMetrics are the worker's figures: per job (turn, bot, computer_game, abandoned), the games
// served and how late past their due time, and, read at each scrape, how many games are due now.
type workerMetrics struct {
	lateness *prometheus.HistogramVec
	depth    *prometheus.Desc
	service  *play.Service
}

func newWorkerMetrics(service *play.Service) *workerMetrics {
	w := &workerMetrics{
		lateness: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "worker_lateness_seconds",
			Help:    "How long after its due time the worker served a game, by job (turn, bot, computer_game, abandoned); the count is the games served.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300},
		}, []string{"job"}),
		depth: prometheus.NewDesc("worker_queue_depth",
			"Games whose job is due now and not yet served, by job (turn, bot, computer_game), read at the scrape and counted up to "+strconv.Itoa(play.QueueDepthCap)+".", []string{"job"}, nil),
		service: service,
	}
	service.ObserveWorker(func(work play.DueWork, late time.Duration) {
		w.lateness.WithLabelValues(work.String()).Observe(late.Seconds())
	})
	return w
}

func (w *workerMetrics) Describe(ch chan<- *prometheus.Desc) {
	w.lateness.Describe(ch)
	ch <- w.depth
}

// Collect reads the queue depth from the database, bounded by a short timeout so that a slow
// database does not hold the scrape.
func (w *workerMetrics) Collect(ch chan<- prometheus.Metric) {
	w.lateness.Collect(ch)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	depth, err := w.service.QueueDepth(ctx)
	if err != nil {
		return
	}
	for work, n := range depth {
		ch <- prometheus.MustNewConstMetric(w.depth, prometheus.GaugeValue, float64(n), work.String())
	}
}
