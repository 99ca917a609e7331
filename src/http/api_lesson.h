/* api_lesson: POST /api/v1/lesson/{step}, the referee of the interactive
 * lesson (docs/API.md "Lesson"; the steps are lesson.h's). */
#ifndef PG_HTTP_API_LESSON_H
#define PG_HTTP_API_LESSON_H

#include "http/http_reply.h"

/* Answers a request for /api/v1/lesson/<step>; step is what follows
 * "lesson/" in the path. */
void api_lesson(http_request *rq, const char *step);

#endif
