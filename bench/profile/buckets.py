"""Buckets the two profile summaries share: the component of a frame and a request's stages.

jfr_top.py (JFR recordings) and collapsed_top.py (async-profiler's collapsed stacks) both import
from here, so neither imports the other.
"""

COMPONENTS = [  # (prefix of "class.method", component); first match wins
    ("dev.kumiko.server.json.", "kumiko server json (JsonTree)"),
    ("dev.kumiko.server.protocol.", "kumiko server protocol (readers/writers)"),
    ("dev.kumiko.server.http.", "kumiko server http (handler, responses)"),
    ("dev.kumiko.expr.", "kumiko expressions"),
    ("dev.kumiko.codec.", "kumiko item codec"),
    ("dev.kumiko.keys.", "kumiko keys"),
    ("dev.kumiko.model.", "kumiko model (AttributeValue, DynamoNumber, ItemSize)"),
    ("dev.kumiko.storage.", "kumiko stores"),
    ("dev.kumiko.rocksdb.", "kumiko RocksDB store"),
    ("dev.kumiko.", "kumiko engine (other)"),
    ("com.fasterxml.jackson.", "Jackson"),
    ("io.netty.handler.codec.http.", "Netty HTTP codec"),
    ("io.netty.", "Netty (other)"),
    ("org.rocksdb.", "RocksDB JNI"),
    ("java.util.zip.", "JDK zip (crc32, gzip, inflate)"),
    ("java.util.concurrent.locks.", "JDK locks"),
    ("java.util.concurrent.", "JDK concurrent collections"),
    ("java.math.", "JDK BigDecimal/BigInteger"),
    ("java.util.regex.", "JDK regex"),
    ("java.lang.String", "JDK strings"),
    ("java.util.", "JDK collections (other)"),
    ("sun.nio.", "JDK NIO"),
    ("java.", "JDK (other)"),
    ("jdk.", "JDK (other)"),
    ("sun.", "JDK (other)"),
]


def component(name):
    for prefix, comp in COMPONENTS:
        if name.startswith(prefix):
            return comp
    return "other"


# Inclusive share of the stages one request goes through (a frame anywhere on the stack).
STAGES = [
    ("epoll wait (idle or waking up)", "sun.nio.ch.EPoll.wait"),
    ("socket read", "sun.nio.ch.SocketDispatcher.read0"),
    ("socket write (flush per response)", "sun.nio.ch.FileDispatcherImpl.write0"),
    ("HTTP request decode (HttpServerCodec)", "io.netty.handler.codec.http.HttpObjectDecoder.decode"),
    ("content decompressor pass-through", "io.netty.handler.codec.http.HttpContentDecoder.decode"),
    ("aggregator (FullHttpRequest)", "io.netty.handler.codec.MessageAggregator.decode"),
    ("DynamoHandler.channelRead0 (everything below)", "dev.kumiko.server.http.DynamoHandler.channelRead0"),
    ("  JSON tree parse (JsonTree.parseObject)", "dev.kumiko.server.json.JsonTree.parseObject"),
    ("  Operations.dispatch (decode members + engine + write body)", "dev.kumiko.server.protocol.Operations.dispatch"),
    ("    AttributeValues.decode (wire -> AttributeValue)", "dev.kumiko.server.protocol.AttributeValues.decodeMap"),
    ("    engine PutItem", "dev.kumiko.engine.item.ItemOperations.putItem"),
    ("    engine GetItem", "dev.kumiko.engine.item.ItemOperations.getItem"),
    ("    engine UpdateItem", "dev.kumiko.engine.item.UpdateItemOperation.apply"),
    ("    engine BatchWriteItem", "dev.kumiko.engine.item.BatchWriteOperation.apply"),
    ("    engine Query", "dev.kumiko.engine.read.ReadOperations.query"),
    ("      expressions (RequestExpressions build)", "dev.kumiko.expr.RequestExpressions$Builder.build"),
    ("      store read (ItemAccess.read)", "dev.kumiko.engine.item.ItemAccess.read"),
    ("        MemoryStore.get (skip list)", "dev.kumiko.storage.memory.MemoryStore.get"),
    ("        ItemCodec.decode", "dev.kumiko.codec.ItemCodec.decode"),
    ("      store write (ItemWriter.commit)", "dev.kumiko.engine.item.ItemWriter.commit"),
    ("        ItemCodec.encode", "dev.kumiko.codec.ItemCodec.encode"),
    ("        MemoryStore.apply", "dev.kumiko.storage.memory.MemoryStore.apply"),
    ("        RocksStore.apply", "dev.kumiko.rocksdb.RocksStore.apply"),
    ("      ItemSize.of", "dev.kumiko.model.ItemSize.of"),
    ("    response body (JsonOut)", "dev.kumiko.server.protocol.JsonOut.item"),
    ("  Responses.json (headers, crc32, gzip)", "dev.kumiko.server.http.Responses.json"),
    ("    crc32", "dev.kumiko.server.http.Responses.crc32"),
    ("    gzip", "dev.kumiko.server.http.Responses.gzip"),
    ("  RequestIds.next", "dev.kumiko.server.http.RequestIds.next"),
    ("  writeAndFlush (encode + syscall)", "io.netty.channel.AbstractChannelHandlerContext.writeAndFlush"),
    ("GC threads", "[GC]"),
    ("JIT compiler threads", "[JIT]"),
]
