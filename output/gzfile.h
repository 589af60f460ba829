/* gzfile.h - a buffered, all-or-nothing output stream, plain or gzip.
 *
 * Built on common/afile.h (temporary file + rename): the bytes go to
 * "PATH.tmp.XXXXXX", through zlib's deflate when asked (gzip framing, no
 * file name or time stamp in the header, so equal input gives equal
 * bytes), and only gzf_commit renames the file into place.  Any write or
 * compression error is remembered and reported by gzf_commit, which then
 * removes the temporary file: a failed run never leaves a partial file.
 */
#ifndef OUTPUT_GZFILE_H
#define OUTPUT_GZFILE_H

#include <stdbool.h>
#include <stddef.h>

struct gzfile;

/* Does PATH end in ".gz" (compress)? */
bool gzf_path_wants_gzip(const char *path);

/* Open PATH ("-" = stdout), gzip-compressed if `gzip`.  Returns GV_OK,
 * GV_EIO or GV_ENOMEM with a message naming the file. */
int gzf_open(struct gzfile **out, const char *path, bool gzip, char *err, size_t errlen);
/* Append bytes (buffered).  Errors are reported by gzf_commit. */
void gzf_write(struct gzfile *g, const char *buf, size_t len);
void gzf_puts(struct gzfile *g, const char *s);
/* Finish the stream and write it all out to the temporary file, checking
 * every write (afile_prepare): GV_OK, or GV_EIO with the temporary file
 * removed.  g stays to be committed or aborted. */
int gzf_prepare(struct gzfile *g, char *err, size_t errlen);
/* Prepare if not yet done, then rename into place; frees g. */
int gzf_commit(struct gzfile *g, char *err, size_t errlen);
/* Drop everything written (removes the temporary file); frees g. */
void gzf_abort(struct gzfile *g);
/* Bytes handed to gzf_write so far (before compression). */
size_t gzf_bytes_in(const struct gzfile *g);

#endif
