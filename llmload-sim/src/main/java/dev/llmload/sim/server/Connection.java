package dev.llmload.sim.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;

/**
 * What a {@link CompletionStream} writes through: the connection's channel, the HTTP codec's
 * context (writing through it passes beneath the codec's encoder) and the inbox of the channel's
 * event loop.
 */
record Connection(Channel channel, ChannelHandlerContext belowEncoder, LoopInbox inbox) {}
