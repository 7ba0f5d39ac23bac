package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"primegames/play"
)

type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// series are the request figures' children by label values, found once: a lookup by labels
	// hashes and checks them on every request. Bounded as the labels are: methods outside HTTP's
	// own are counted as OTHER, routes are the contract's and "unmatched", statuses the server's.
	series sync.Map // seriesKey → *requestSeries
}

type seriesKey struct {
	method, route string
	status        int
}

type requestSeries struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// newMetrics registers the HTTP figures, the Go runtime's, the process's, the pool's when given and
// the worker's when the service is.
func newMetrics(pool prometheus.Collector, service *play.Service) *metrics {
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
	if pool != nil {
		m.registry.MustRegister(pool)
	}
	if service != nil {
		m.registry.MustRegister(newWorkerMetrics(service))
	}
	return m
}

func (m *metrics) observe(method, route string, status int, elapsed time.Duration) {
	key := seriesKey{method: metricMethod(method), route: route, status: status}
	found, ok := m.series.Load(key)
	if !ok {
		code := strconv.Itoa(status)
		found, _ = m.series.LoadOrStore(key, &requestSeries{
			count:   m.requests.WithLabelValues(key.method, route, code),
			latency: m.latency.WithLabelValues(key.method, route, code),
		})
	}
	s := found.(*requestSeries)
	s.count.Inc()
	s.latency.Observe(elapsed.Seconds())
}

// metricMethod is method as a label: a client may send any token as a method, and each would be
// a series of its own.
func metricMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "OTHER"
}

// GetMetrics serves the Prometheus exposition.
func (s *Server) GetMetrics(c echo.Context) error {
	promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{}).ServeHTTP(c.Response(), c.Request())
	return nil
}
