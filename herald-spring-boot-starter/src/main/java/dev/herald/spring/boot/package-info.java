/**
 * Herald in a Spring Boot application: {@link dev.herald.spring.boot.HeraldAutoConfiguration}
 * builds an {@link dev.herald.server.McpServer} from the application's beans and serves it with
 * {@link dev.herald.http.servlet.McpServlet} at {@code /mcp} on the servlet container Spring Boot
 * starts (MCP 2025-11-25 basic/transports, "Streamable HTTP"). The same classes serve Spring Boot
 * 4.0 and 3.5: they use only what both generations share.
 *
 * <p>Threading: the beans are built on the thread that refreshes the Spring context; requests run
 * on Herald's virtual threads, never on the container's. Null policy: nothing is null unless
 * marked {@code @Nullable}; a property that is not set is null and leaves Herald's default.
 */
@NullMarked
package dev.herald.spring.boot;

import org.jspecify.annotations.NullMarked;
