/* SPDX-License-Identifier: MIT */
/*
 * workload-list.h - every workload cvmfn hosts, one line each. Adding a workload is
 * one new file defining `const struct workload_ops wl_<ident>`, its
 * `const struct workload_info wl_info_<ident>` in workload-registry.c, and one
 * line here. Keep the list in the order `cvmfn list` prints it.
 */
#define WORKLOADS(X)            \
	X(null)                 \
	X(hello_world)          \
	X(chameleon)            \
	X(map_reduce)           \
	X(graph_bfs)            \
	X(sentiment)            \
	X(logistic_regression)  \
	X(matmul)               \
	X(image_recognition)    \
	X(cnn_classification)   \
	X(rnn_generate)         \
	X(video_processing)     \
	X(video_face_detection) \
	X(pyaes)                \
	X(compression)          \
	X(random_disk_io)       \
	X(crud_api)
