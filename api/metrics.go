package api

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"primegames/repo"
)

type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(db *repo.DB) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests answered, by method, route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by method, route and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"method", "route", "status"}),
	}
	m.registry.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		m.registry.MustRegister(poolCollector{db: db})
	}
	return m
}

func (m *metrics) observe(method, route string, status int, elapsed time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, code).Inc()
	m.latency.WithLabelValues(method, route, code).Observe(elapsed.Seconds())
}

// GetMetrics serves the Prometheus exposition.
func (s *Server) GetMetrics(c echo.Context) error {
	promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{}).ServeHTTP(c.Response(), c.Request())
	return nil
}

// poolCollector reads the connection pool's statistics at each scrape.
type poolCollector struct{ db *repo.DB }

var (
	poolTotal    = prometheus.NewDesc("db_pool_connections", "Connections in the pool.", nil, nil)
	poolAcquired = prometheus.NewDesc("db_pool_acquired_connections", "Connections in use.", nil, nil)
	poolIdle     = prometheus.NewDesc("db_pool_idle_connections", "Idle connections.", nil, nil)
	poolMax      = prometheus.NewDesc("db_pool_max_connections", "The pool's size limit.", nil, nil)
	poolAcquires = prometheus.NewDesc("db_pool_acquires_total", "Connections acquired from the pool.", nil, nil)
	poolWaits    = prometheus.NewDesc("db_pool_empty_acquires_total", "Acquires that had to wait for a connection.", nil, nil)
	poolWaited   = prometheus.NewDesc("db_pool_acquire_wait_seconds_total", "Time spent acquiring connections.", nil, nil)
)

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolTotal, poolAcquired, poolIdle, poolMax, poolAcquires, poolWaits, poolWaited} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := p.db.Pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(st.TotalConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquired, prometheus.GaugeValue, float64(st.AcquiredConns()))
	ch <- prometheus.MustNewConstMetric(poolIdle, prometheus.GaugeValue, float64(st.IdleConns()))
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(st.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(st.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(st.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, st.AcquireDuration().Seconds())
}
